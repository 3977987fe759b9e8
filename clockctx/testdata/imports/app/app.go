// Package app imports one thing of each kind for TestBadImports.
package app

import (
	"context"
	"testing/synctest"

	"github.com/jonboulle/clockwork"

	"github.com/retrykit/retrykit/fakeclock"
	"github.com/retrykit/retrykit/internal/bad"
	"github.com/retrykit/retrykit/internal/good"
	"github.com/retrykit/retrykit/internal/settle"
)
