package rules

import (
	"math"
	"strconv"
)

// Equity is a value in millipoints (thousandths of a point): a move's score
// plus the value of the tiles it keeps, a leave's value, an end-of-game
// adjustment. Integers keep comparisons exact and results reproducible;
// int32 holds ±2 million points.
type Equity int32

// milli is the number of equity units in a point, the one place it is
// written down.
const milli = 1000

// FromPoints is the equity of a whole number of points.
func FromPoints[T ~int | ~int32](points T) Equity { return Equity(points) * milli }

// RoundPoints is the equity nearest to a fractional number of points.
// Halves round away from zero; the caller keeps points within range.
func RoundPoints(points float64) Equity { return Equity(math.Round(points * milli)) }

// InRange reports whether RoundPoints(points) fits in an Equity.
func InRange(points float64) bool {
	mp := math.Round(points * milli)
	return mp >= math.MinInt32 && mp <= math.MaxInt32
}

// MaxPoints is the largest number of whole points an Equity holds.
const MaxPoints = math.MaxInt32 / milli

// TruncPoints is a fractional number of points as an equity, the
// millipoints past it dropped (rounded towards zero).
func TruncPoints(points float64) Equity { return Equity(points * milli) }

// Points is e in points.
func (e Equity) Points() float64 { return float64(e) / milli }

// MilliToPoints converts a sum or a mean of equities, kept in a wider
// type than Equity, to points.
func MilliToPoints(milliPoints float64) float64 { return milliPoints / milli }

// RoundMilli rounds a number of points to thousandths, the precision of
// an equity.
func RoundMilli(points float64) float64 { return math.Round(points*milli) / milli }

// String formats e in points with three decimals and no trailing zeros:
// "12", "-3.5", "0.125".
func (e Equity) String() string {
	return strconv.FormatFloat(e.Points(), 'f', -1, 64)
}
