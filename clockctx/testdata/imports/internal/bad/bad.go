// Package bad links package testing and clockwork.
package bad

import (
	"testing"

	"github.com/jonboulle/clockwork"
)
