// Package good imports only the standard library.
package good

import (
	"sync"
	"time"
)
