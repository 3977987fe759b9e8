package schedfmt

import "strconv"

// Count states a number of things as every retrykit message does: "1
// attempt", "0 attempts", "3 retries". A noun ending in a consonant and y
// takes "ies"; any other takes "s".
func Count(n int, noun string) string {
	s := strconv.Itoa(n) + " "
	if n == 1 {
		return s + noun
	}
	if k := len(noun); k >= 2 && noun[k-1] == 'y' && !isVowel(noun[k-2]) {
		return s + noun[:k-1] + "ies"
	}
	return s + noun + "s"
}

func isVowel(c byte) bool {
	switch c {
	case 'a', 'e', 'i', 'o', 'u':
		return true
	}
	return false
}
