package gcg

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"scrabble/rules"
)

// Error is a problem with a GCG file, located at a line where possible.
type Error struct {
	File string
	Line int // 1-based; 0 when the problem is the file as a whole
	Msg  string
}

// Error formats the error as "file:line: msg", leaving out missing parts.
func (e *Error) Error() string {
	switch {
	case e.File != "" && e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
	case e.File != "":
		return e.File + ": " + e.Msg
	case e.Line > 0:
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// maxErrors is how many bad lines Parse reports before giving up.
const maxErrors = 10

// MaxFileSize is the largest GCG file read, 16 MB: real games are a few
// KB, and a file read whole must not be allowed to exhaust memory.
const MaxFileSize = 16 << 20

// ReadFile reads and parses the GCG file at path (at most MaxFileSize
// bytes).
func ReadFile(path string) (*Game, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("reading game: %w", err)
	}
	defer f.Close()
	return Read(path, f)
}

// Read reads a game from r and parses it; file names it in errors. It
// reads no more than MaxFileSize bytes (and one more to tell that there
// is more).
func Read(file string, r io.Reader) (*Game, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("reading game %s: %w", file, err)
	}
	return Parse(file, data)
}

// tooLarge is the error for a file over MaxFileSize.
func tooLarge(file string) error {
	return &Error{File: file, Msg: fmt.Sprintf("larger than %d MB, the limit for a GCG file (a real game is a few KB)", MaxFileSize>>20)}
}

// Parse reads a game in GCG; file names it in errors. It checks the shape of
// every line, not the moves (see Replay): a bad line is an *Error naming the
// file and line, and every bad line is reported (up to ten, joined with
// errors.Join).
//
// Lines end with LF, CRLF or CR. The text is UTF-8 when the first line says
// "#character-encoding UTF-8" (or the file starts with a byte-order mark);
// "#character-encoding ISO-8859-1" or no pragma on a file that is not valid
// UTF-8 means ISO 8859-1, the format's default. Blank lines are skipped.
// Data over MaxFileSize is refused.
// A #note or #description continues on the following lines up to the next
// line that starts with '#' or '>'. Pragmas the model has no field for are
// kept in Game.Pragmas.
func Parse(file string, data []byte) (*Game, error) {
	if len(data) > MaxFileSize {
		return nil, tooLarge(file)
	}
	text, err := decode(file, data)
	if err != nil {
		return nil, err
	}
	p := &parser{file: file, g: &Game{File: file}, once: map[string]int{}, noted: -2}
	lines := splitLines(text)
	for i, line := range lines {
		p.line(i+1, line)
		if len(p.errs) >= maxErrors {
			if i+1 < len(lines) {
				p.errs = append(p.errs, &Error{File: file, Msg: fmt.Sprintf("stopped after %d errors", maxErrors)})
			}
			break
		}
	}
	p.finish()
	if len(p.errs) > 0 {
		return nil, errors.Join(p.errs...)
	}
	return p.g, nil
}

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// decode turns the file into UTF-8 text following its encoding.
func decode(file string, data []byte) (string, error) {
	bom := bytes.HasPrefix(data, utf8BOM)
	data = bytes.TrimPrefix(data, utf8BOM)
	first := data
	if i := bytes.IndexAny(first, "\r\n"); i >= 0 {
		first = first[:i]
	}
	isUTF8 := bom || utf8.Valid(data)
	if kw, val := splitPragma(string(bytes.Trim(first, " \t"))); strings.EqualFold(kw, "character-encoding") {
		switch strings.ToLower(strings.ReplaceAll(val, "_", "-")) {
		case "utf-8", "utf8":
			isUTF8 = true
		case "iso-8859-1", "iso8859-1", "latin-1", "latin1":
			isUTF8 = false
		default:
			return "", &Error{File: file, Line: 1, Msg: fmt.Sprintf("unsupported character encoding %q: want UTF-8 or ISO-8859-1", val)}
		}
	}
	if !isUTF8 {
		// ISO 8859-1: each byte is the code point of the same value.
		var sb strings.Builder
		for _, b := range data {
			sb.WriteRune(rune(b))
		}
		return sb.String(), nil
	}
	if !utf8.Valid(data) {
		for i, line := range splitLines(string(data)) {
			if !utf8.ValidString(line) {
				return "", &Error{File: file, Line: i + 1, Msg: "not valid UTF-8, but the file says it is UTF-8"}
			}
		}
	}
	return string(data), nil
}

// splitLines splits text at LF, CRLF or CR; a final line end starts no line.
func splitLines(text string) []string {
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	text = strings.TrimSuffix(text, "\n")
	if text == "" {
		return nil
	}
	return strings.Split(text, "\n")
}

// trim drops the white space GCG knows: spaces and tabs.
func trim(s string) string { return strings.Trim(s, " \t") }

// fields splits s at runs of spaces and tabs.
func fields(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' })
}

// splitPragma splits "#name value" into the name and the trimmed value; the
// name is "" when s is not a pragma.
func splitPragma(s string) (name, value string) {
	if !strings.HasPrefix(s, "#") {
		return "", ""
	}
	s = s[1:]
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], trim(s[i:])
}

type parser struct {
	file string
	g    *Game
	errs []error
	once map[string]int // pragmas allowed once: name -> line
	// The texts are built up here, each line appended once (not the whole
	// text copied per line), and set on the game by setNote and finish.
	// note is the note of event noted (-1: the game's note; -2: none yet),
	// desc the description.
	note, desc strings.Builder
	noted      int
	// cont is the text that continuation lines extend (a note or the
	// description); blanks counts the blank lines seen since, which belong
	// to it only if it goes on.
	cont   *strings.Builder
	blanks int
	// players are the #playerN lines read so far, by index, and
	// playerLine the line of each (0: not given); events is whether an
	// event line has been seen (players are declared before the events).
	players    [rules.MaxPlayers]Player
	playerLine [rules.MaxPlayers]int
	events     bool
}

// setNote puts the note built so far on its event (or the game).
func (p *parser) setNote() {
	switch {
	case p.noted == -1:
		p.g.Note = p.note.String()
	case p.noted >= 0:
		p.g.Events[p.noted].Note = p.note.String()
	}
}

func (p *parser) errorf(line int, format string, args ...any) {
	p.errs = append(p.errs, &Error{File: p.file, Line: line, Msg: fmt.Sprintf(format, args...)})
}

func (p *parser) line(n int, raw string) {
	s := trim(raw)
	switch {
	case s == "":
		if p.cont != nil {
			p.blanks++
		}
	case s[0] == '#':
		p.pragma(n, s)
	case s[0] == '>':
		p.cont, p.blanks = nil, 0
		p.event(n, s)
	case p.cont != nil:
		p.extend(p.cont, s)
	default:
		p.errorf(n, "%q is neither a pragma ('#') nor an event ('>'), nor does it continue a #note or #description", clip(s))
	}
}

// extend adds a line to a note or the description, with any blank lines
// before it.
func (p *parser) extend(text *strings.Builder, s string) {
	for range p.blanks {
		text.WriteByte('\n')
	}
	text.WriteByte('\n')
	text.WriteString(s)
	p.blanks = 0
}

// clip shortens a line for an error message.
func clip(s string) string {
	if r := []rune(s); len(r) > 60 {
		return string(r[:57]) + "..."
	}
	return s
}

func (p *parser) pragma(n int, s string) {
	name, val := splitPragma(s)
	key := strings.ToLower(name)
	switch key {
	case "note":
		target := len(p.g.Events) - 1
		begun := p.noted == target
		if !begun {
			p.setNote()
			p.note.Reset()
			p.noted = target
		}
		p.appendText(&p.note, val, begun)
		return
	case "description":
		_, begun := p.once[key]
		p.once[key] = n
		p.appendText(&p.desc, val, begun)
		return
	}
	p.cont, p.blanks = nil, 0
	if name == "" {
		p.errorf(n, "'#' must be followed by a pragma name, e.g. #player1 or #note")
		return
	}
	// #playerN and #rackN: N from 1 to rules.MaxPlayers.
	numbered, num := "", 0
	for _, prefix := range []string{"player", "rack"} {
		if rest, ok := strings.CutPrefix(key, prefix); ok && isDigits(rest) {
			numbered, num = prefix, 0
			if len(rest) <= 2 {
				num, _ = strconv.Atoi(rest)
			}
			if num < 1 || num > rules.MaxPlayers {
				p.errorf(n, "#%s: a game has %d to %d players (#%s1 to #%s%d)", key, rules.MinPlayers, rules.MaxPlayers, prefix, prefix, rules.MaxPlayers)
				return
			}
		}
	}
	switch {
	case numbered != "", key == "title", key == "lexicon", key == "id", key == "challenge-rule":
		if first, ok := p.once[key]; ok {
			p.errorf(n, "second #%s (the first is on line %d)", key, first)
			return
		}
		p.once[key] = n
	}
	g := p.g
	switch {
	case key == "character-encoding":
		if n != 1 {
			p.errorf(n, "#character-encoding must be the first line")
		}
	case numbered == "player":
		p.player(n, key, num-1, val)
	case numbered == "rack":
		r, err := parseTiles(val)
		if err != nil {
			p.errorf(n, "#%s: %v", key, err)
			return
		}
		g.Racks[num-1] = r
	case key == "challenge-rule":
		c, err := rules.ParseChallengeRule(val)
		if err != nil {
			p.errorf(n, "#challenge-rule: %v", err)
			return
		}
		g.ChallengeRule = c.String()
	default:
		p.otherPragma(n, key, name, val)
	}
}

// player reads "#playerN nick Full Name" for player index i.
func (p *parser) player(n int, key string, i int, val string) {
	if p.events {
		p.errorf(n, "#%s after the first event: declare every player before the events", key)
		return
	}
	f := fields(val)
	if len(f) == 0 {
		p.errorf(n, "#%s needs a nickname (and a full name): #%s nick Full Name", key, key)
		return
	}
	nick := f[0]
	for j, o := range p.players {
		if j != i && o.Nick == nick {
			p.errorf(n, "both players have the nickname %q (#player%d and #player%d)", nick, j+1, i+1)
			return
		}
	}
	p.players[i] = Player{Nick: nick, Name: trim(strings.TrimPrefix(val, nick))}
	p.playerLine[i] = n
}

// otherPragma reads the pragmas with no number.
func (p *parser) otherPragma(n int, key, name, val string) {
	g := p.g
	switch key {
	case "title":
		g.Title = val
	case "lexicon":
		if len(fields(val)) != 1 {
			p.errorf(n, "#lexicon wants one name, e.g. #lexicon NWL23; got %q", val)
			return
		}
		g.Lexicon = val
	case "id":
		g.ID = val
	default:
		g.Pragmas = append(g.Pragmas, Pragma{Name: name, Value: val})
	}
}

// appendText sets a note or the description to val, or when it has begun
// adds val as a new line (after the blank lines just seen, if the text was
// the one being continued). Continuation lines then extend it.
func (p *parser) appendText(text *strings.Builder, val string, begun bool) {
	switch {
	case begun && p.cont == text:
		p.extend(text, val)
	case begun:
		text.WriteByte('\n')
		text.WriteString(val)
	default:
		text.Reset()
		text.WriteString(val)
	}
	p.cont, p.blanks = text, 0
}

// event reads ">nick: [RACK] MOVE SCORE TOTAL".
func (p *parser) event(n int, s string) {
	p.events = true
	f := fields(s[1:])
	if len(f) == 0 || !strings.HasSuffix(f[0], ":") || len(f[0]) < 2 {
		p.errorf(n, "an event starts with '>nick:', e.g. >Joel: AEINRST 8D RETAINS +66 66")
		return
	}
	nick := strings.TrimSuffix(f[0], ":")
	f = f[1:]
	if missingTotal(f) {
		p.errorf(n, "the cumulative score is missing after the score %s: want >nick: RACK MOVE +SCORE TOTAL, e.g. >Joel: AEINRST 8D RETAINS +66 66", f[len(f)-1])
		return
	}
	if len(f) < 3 {
		p.errorf(n, "event has too few fields: want >nick: RACK MOVE +SCORE TOTAL")
		return
	}
	e := Event{Line: n, Player: -1}
	for i, pl := range p.players {
		if pl.Nick == nick {
			e.Player = i
		}
	}
	if e.Player < 0 {
		switch {
		case p.players[0].Nick == "" || p.players[1].Nick == "":
			p.errorf(n, "event for %q before #player1 and #player2 name both players", nick)
		default:
			p.errorf(n, "unknown player %q: the players are %s", nick, p.playerList())
		}
		return
	}
	scoreTok, totalTok := f[len(f)-2], f[len(f)-1]
	var err error
	if e.Score, err = number(scoreTok, true); err != nil {
		p.errorf(n, "score %q: %v", scoreTok, err)
		return
	}
	if e.Total, err = number(totalTok, false); err != nil {
		p.errorf(n, "cumulative score %q: %v", totalTok, err)
		return
	}
	m := f[:len(f)-2]
	if isTiles(m[0]) {
		if e.Rack, err = parseTiles(m[0]); err != nil {
			p.errorf(n, "rack %q: %v", m[0], err)
			return
		}
		m = m[1:]
	}
	if err := readMove(&e, m, scoreTok[0] == '-'); err != nil {
		p.errorf(n, "%v", err)
		return
	}
	p.g.Events = append(p.g.Events, e)
}

// readMove reads the move fields of an event (after the rack); minus says
// the score was written with '-'.
func readMove(e *Event, m []string, minus bool) error {
	want := "want a play (8D WORD or D8 WORD), -TILES, -N, -, --, (challenge), (time) or (TILES)"
	switch len(m) {
	case 0:
		return fmt.Errorf("no move after the rack: %s", want)
	case 2:
		if !isPosition(m[0]) {
			return fmt.Errorf("bad position %q: want row then column across (8D) or column then row down (D8)", m[0])
		}
		if err := checkWord(m[1]); err != nil {
			return err
		}
		e.Kind, e.Position, e.Word = Play, m[0], m[1]
		return nil
	case 1:
	default:
		return fmt.Errorf("cannot read %q: %s", strings.Join(m, " "), want)
	}
	tok := m[0]
	lower := strings.ToLower(tok)
	switch {
	case tok == "-":
		e.Kind = Pass
	case tok == "--":
		e.Kind = Withdrawn
	case lower == "(challenge)":
		e.Kind = ChallengeBonus
	case lower == "(time)":
		e.Kind = TimePenalty
	case strings.HasPrefix(tok, "-"):
		e.Kind = Exchange
		rest := tok[1:]
		if isDigits(rest) {
			n, err := strconv.Atoi(rest)
			if err != nil || n < 1 || n > rules.RackSize {
				return fmt.Errorf("exchange of %s tiles: want 1 to %d", rest, rules.RackSize)
			}
			e.Count = n
			return nil
		}
		t, err := parseTiles(rest)
		if err != nil {
			return fmt.Errorf("exchange %q: %v", tok, err)
		}
		e.Tiles, e.Count = t, t.Count()
	case strings.HasPrefix(tok, "(") && strings.HasSuffix(tok, ")") && len(tok) > 2:
		// Going out in a game of three or four, the tiles of every other
		// player together: up to three racks.
		t, err := parseTilesUpTo(tok[1:len(tok)-1], (rules.MaxPlayers-1)*rules.RackSize)
		if err != nil {
			return fmt.Errorf("end-of-game tiles %q: %v", tok, err)
		}
		e.Tiles = t
		e.Kind = EndPoints
		if minus {
			e.Kind = EndPenalty
		}
	default:
		return fmt.Errorf("cannot read %q: %s", tok, want)
	}
	return nil
}

// missingTotal reports whether an event's fields (after "nick:") end with
// a score but no cumulative total: the last field is signed with '+' (a
// total never is), or it is signed with '-' (a total may be negative) and the
// field before it is no score. Without this the score would be read as the
// total and the move's last field as the score.
func missingTotal(f []string) bool {
	if len(f) < 2 {
		return false
	}
	last, before := f[len(f)-1], f[len(f)-2]
	if !isSignedNumber(last) {
		return false
	}
	return last[0] == '+' || !isSignedNumber(before)
}

// isSignedNumber reports whether s is a sign and digits, such as +32 or -24.
func isSignedNumber(s string) bool {
	return len(s) > 1 && (s[0] == '+' || s[0] == '-') && isDigits(s[1:])
}

// number reads a score ("+12", "-5"; signed says the sign is required) or a
// cumulative total ("123", "-4").
func number(s string, signed bool) (int, error) {
	digits := s
	if s != "" && (s[0] == '+' || s[0] == '-') {
		digits = s[1:]
	} else if signed {
		return 0, errors.New("want a sign and a number, e.g. +32 or -24")
	}
	if !isDigits(digits) {
		return 0, errors.New("not a number")
	}
	if len(digits) > 5 {
		return 0, errors.New("out of range")
	}
	return strconv.Atoi(s)
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// isTiles reports whether s looks like a rack: letters and '?' only.
func isTiles(s string) bool {
	for _, r := range s {
		if _, ok := rules.LetterFromRune(r); !ok {
			return false
		}
	}
	return s != ""
}

// parseTiles reads a rack: letters (either case) and '?' for a blank, at
// most 7.
func parseTiles(s string) (rules.Rack, error) { return parseTilesUpTo(s, rules.RackSize) }

// parseTilesUpTo reads tiles as parseTiles does, at most most of them.
func parseTilesUpTo(s string, most int) (rules.Rack, error) {
	if !isTiles(s) {
		return rules.Rack{}, errors.New("want letters A-Z and ? for a blank")
	}
	r, err := rules.ParseRack(s)
	if err != nil {
		return rules.Rack{}, err
	}
	if n := r.Count(); n > most {
		if most == rules.RackSize {
			return rules.Rack{}, fmt.Errorf("%d tiles; a rack holds at most %d", n, rules.RackSize)
		}
		return rules.Rack{}, fmt.Errorf("%d tiles; %d racks of the other players hold at most %d", n, rules.MaxPlayers-1, most)
	}
	return r, nil
}

// isPosition reports whether s is written like a square: "8D" or "D8"
// (either case, the row one or two digits).
func isPosition(s string) bool {
	if len(s) < 2 || len(s) > 3 {
		return false
	}
	letter := func(c byte) bool { return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' }
	return letter(s[0]) && isDigits(s[1:]) || letter(s[len(s)-1]) && isDigits(s[:len(s)-1])
}

// checkWord checks the characters of a play's word: letters, '.', and
// letters in parentheses for tiles on the board.
func checkWord(w string) error {
	open, squares, group := false, 0, 0
	for i, r := range w {
		switch {
		case r == '(':
			if open {
				return fmt.Errorf("word %q: nested '(' at character %d", w, i+1)
			}
			open, group = true, 0
		case r == ')':
			if !open || group == 0 {
				return fmt.Errorf("word %q: ')' at character %d closes no letters", w, i+1)
			}
			open = false
		case r == '.':
			squares++
			group++
		default:
			if l, ok := rules.LetterFromRune(r); !ok || l == rules.Blank {
				return fmt.Errorf("word %q: %q is not a letter, '.', '(' or ')'", w, r)
			}
			squares++
			group++
		}
	}
	if open {
		return fmt.Errorf("word %q: '(' is never closed", w)
	}
	if squares == 0 {
		return fmt.Errorf("word %q has no letters", w)
	}
	return nil
}

// playerList names the players declared so far for an error:
// "a" (#player1), "b" (#player2) and "c" (#player3).
func (p *parser) playerList() string {
	var names []string
	for i, pl := range p.players {
		if pl.Nick != "" {
			names = append(names, fmt.Sprintf("%q (#player%d)", pl.Nick, i+1))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// finish checks the file as a whole and tidies texts.
func (p *parser) finish() {
	g := p.g
	// The players are #player1 to #playerN with none missing, N at least
	// 2; a #rackN must be a player's.
	n := 0
	for i, pl := range p.players {
		if pl.Nick != "" {
			n = i + 1
		}
	}
	if len(p.errs) == 0 {
		for i := range max(n, rules.MinPlayers) {
			if p.players[i].Nick == "" {
				msg := fmt.Sprintf("no #player%d line", i+1)
				if i+1 < n {
					msg += fmt.Sprintf(", but a #player%d (line %d): the players are numbered from 1 without a gap", n, p.playerLine[n-1])
				}
				p.errs = append(p.errs, &Error{File: p.file, Msg: msg})
			}
		}
		for i := max(n, rules.MinPlayers); i < rules.MaxPlayers; i++ {
			if line, ok := p.once[fmt.Sprintf("rack%d", i+1)]; ok {
				p.errorf(line, "#rack%d for a player who does not exist: the game has %d players", i+1, max(n, rules.MinPlayers))
			}
		}
	}
	g.Players = append([]Player(nil), p.players[:max(n, rules.MinPlayers)]...)
	p.setNote()
	g.Description = p.desc.String()
	// Blank lines at the end of a text are not part of it.
	g.Note = strings.TrimRight(g.Note, "\n")
	g.Description = strings.TrimRight(g.Description, "\n")
	for i := range g.Events {
		g.Events[i].Note = strings.TrimRight(g.Events[i].Note, "\n")
	}
}
