// Network and DNS from Go with network off.
package main

import (
	"fmt"
	"net"
	"time"
)

func main() {
	if c, err := net.DialTimeout("tcp", "1.1.1.1:443", 3*time.Second); err != nil {
		fmt.Println("tcp blocked")
	} else {
		c.Close()
		fmt.Println("tcp CONNECTED")
	}
	if _, err := net.LookupHost("example.com"); err != nil {
		fmt.Println("dns blocked")
	} else {
		fmt.Println("dns CONNECTED")
	}
}
