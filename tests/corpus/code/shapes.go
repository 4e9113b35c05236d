// Package shapes computes areas and perimeters of plane figures.
package shapes

import (
	"errors"
	"fmt"
	"math"
)

// ErrNegative is returned for a negative dimension.
var ErrNegative = errors.New("shapes: negative dimension")

// Shape is anything with an area and a perimeter.
type Shape interface {
	Area() float64
	Perimeter() float64
}

// Rect is an axis-aligned rectangle.
type Rect struct {
	W, H float64
}

// Area of the rectangle.
func (r Rect) Area() float64 { return r.W * r.H }

// Perimeter of the rectangle.
func (r Rect) Perimeter() float64 { return 2 * (r.W + r.H) }

// Circle is a circle of radius R.
type Circle struct {
	R float64
}

func (c *Circle) Area() float64      { return math.Pi * c.R * c.R }
func (c *Circle) Perimeter() float64 { return 2 * math.Pi * c.R }

// NewRect checks its dimensions.
func NewRect(w, h float64) (Rect, error) {
	if w < 0 || h < 0 {
		return Rect{}, ErrNegative
	}
	return Rect{W: w, H: h}, nil
}

// Describe prints one line per shape, largest first.
func Describe(shapes []Shape) []string {
	out := make([]string, 0, len(shapes))
	for i := range shapes {
		for j := i + 1; j < len(shapes); j++ {
			if shapes[j].Area() > shapes[i].Area() {
				shapes[i], shapes[j] = shapes[j], shapes[i]
			}
		}
	}
	for _, s := range shapes {
		out = append(out, fmt.Sprintf("%T area=%.2f perimeter=%.2f", s, s.Area(), s.Perimeter()))
	}
	return out
}
