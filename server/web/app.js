// The analysis board: filled in later.
