// Package sim will choose plays by Monte Carlo simulation of the turns that
// follow them.
package sim
