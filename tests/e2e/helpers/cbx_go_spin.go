// symbols e2e helper (Go): spins for SECONDS (default 3) in
// main.main -> main.outerCbxgo -> main.(*spinner).innerCbxgo.  Built
// stripped (-ldflags=-s -w): only .gopclntab names the functions.
// Prints its pid first.
package main

import (
	"fmt"
	"os"
	"strconv"
	"time"
)

type spinner struct{ sink uint64 }

//go:noinline
func (s *spinner) innerCbxgo() {
	for i := uint64(0); i < 100000; i++ {
		s.sink += i * 7
	}
}

//go:noinline
func outerCbxgo(end time.Time) uint64 {
	s := &spinner{}
	for time.Now().Before(end) {
		s.innerCbxgo()
	}
	return s.sink
}

func main() {
	secs := 3.0
	if len(os.Args) > 1 {
		if v, err := strconv.ParseFloat(os.Args[1], 64); err == nil {
			secs = v
		}
	}
	fmt.Println(os.Getpid())
	v := outerCbxgo(time.Now().Add(time.Duration(secs * float64(time.Second))))
	os.Exit(int(v & 0))
}
