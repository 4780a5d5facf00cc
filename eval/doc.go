// Package eval will value plays by equity: score plus the value of the leave
// (the tiles kept on the rack).
package eval
