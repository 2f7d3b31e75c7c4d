package movegen

// IsDrawnRepetition tells whether the current position, ply plies below the
// root of a search, counts as a draw by repetition in that search: it
// repeats a position reached after the root, or it occurred twice before (a
// real threefold). One earlier occurrence at or before the root is not a
// draw yet: the game may still avoid the third. The scan stops, like
// IsRepetition's, at the last capture or pawn move and at a null move.
func (p *Position) IsDrawnRepetition(ply int) bool {
	n := len(p.keys)
	end := min(p.rule50, p.sinceNull)
	seen := false
	for i := 4; i <= end; i += 2 {
		if p.keys[n-i] == p.key {
			if i < ply || seen {
				return true
			}
			seen = true
		}
	}
	return false
}
