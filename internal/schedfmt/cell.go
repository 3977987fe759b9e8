package schedfmt

import (
	"net/http"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Cell makes s one short table cell: line breaks and tabs written as
// escapes (OneLine), then at most n runes (Cut). For a cell that is
// quoted, cut with Cut alone and let the quoting escape.
func Cell(s string, n int) string { return Cut(OneLine(s), n) }

// Cut keeps at most n runes of s, marking a cut with "…".
func Cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// OneLine replaces line breaks and tabs so that s fits in a table cell.
func OneLine(s string) string {
	if !strings.ContainsAny(s, "\n\r\t") {
		return s
	}
	return strings.NewReplacer("\r\n", `\n`, "\n", `\n`, "\r", `\r`, "\t", `\t`).Replace(s)
}

// Status is an HTTP status as a status line reads it: "429 Too Many
// Requests", or the bare code when it has no text.
func Status(code int) string {
	if text := http.StatusText(code); text != "" {
		return strconv.Itoa(code) + " " + text
	}
	return strconv.Itoa(code)
}

// ErrCell is an error's text for a result cell: "<nil>" for none, else
// the text on one line, cut to 80 runes.
func ErrCell(err error) string {
	if err == nil {
		return "<nil>"
	}
	return Cell(err.Error(), 80)
}
