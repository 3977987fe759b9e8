package app

import "testing" // test files are not linked into production binaries
