package main

import (
	"testing"

	"github.com/retrykit/retrykit/retrytest"
)

func TestMain(m *testing.M) { retrytest.VerifyTestMain(m) }
