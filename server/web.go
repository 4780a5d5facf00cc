package server

import "embed"

// webFiles are the analysis board's page, script and style, served at /:
// nothing is loaded from other hosts.
//
//go:embed web
var webFiles embed.FS
