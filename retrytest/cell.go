package retrytest

import (
	"strings"
	"unicode/utf8"
)

// cutText makes s one short table cell: line breaks and tabs written as
// escapes (oneLineCell), then at most n runes (cutRunes). For a cell that
// is quoted, cut with cutRunes alone and let the quoting escape.
func cutText(s string, n int) string { return cutRunes(oneLineCell(s), n) }

// cutRunes keeps at most n runes of s, marking a cut with "…".
func cutRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// oneLineCell replaces line breaks and tabs so that s fits in a table cell.
func oneLineCell(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}
