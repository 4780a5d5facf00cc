//go:build !unix

package main

// noCoreFile does nothing where there are no core files.
func noCoreFile() {}
