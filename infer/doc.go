// Package infer estimates what the opponent kept: from the last play they
// made, the racks they could have held, weighted by how likely each was to
// be drawn and how close the play made is to their best play with it.
package infer
