package fuzzy

import (
	"fmt"
	"math"
	"slices"
	"sync"
	"testing"
)

// companies is one organisation's portfolio used by the lookup table.
var companies = []Doc{
	{ID: "northwind", CompanyName: "Northwind Labs, Inc.", Website: "https://www.northwind.io/", Founders: []string{"Jane Doe", "Ravi Patel"}},
	{ID: "northstar", CompanyName: "Northstar Capital", Website: "northstar.vc", Founders: []string{"Tom Baker"}},
	{ID: "acme", CompanyName: "Acme Robotics GmbH", Website: "https://acme-robotics.de", Founders: []string{"Anna Müller"}},
	{ID: "zoe", CompanyName: "Zoë Analytics SAS", Website: "https://zoe-analytics.fr/fr/", Founders: []string{"Zoë Lefèvre"}},
	{ID: "brightwave", CompanyName: "Brightwave Ltd", Website: "https://brightwave.co.uk", Founders: []string{"Sam O'Brien"}},
	{ID: "brightwave-energy", CompanyName: "Brightwave Energy", Website: "https://brightwave-energy.com", Founders: []string{"Lena Fischer"}},
	{ID: "helios", CompanyName: "Helios Data", Website: "https://heliosdata.ai", Founders: []string{"Mark Owens"}},
	{ID: "helix", CompanyName: "Helix Data", Website: "https://helixdata.ai", Founders: []string{"Nina Park"}},
	{ID: "smith", CompanyName: "Smith & Sons Ltd.", Website: "http://smithandsons.com", Founders: []string{"Peter Smith"}},
	{ID: "cafe", CompanyName: "Café Crème S.A.", Website: "https://cafecreme.fr", Founders: []string{"Élodie Durand"}},
	{ID: "kanso", CompanyName: "Kanso K.K.", Website: "https://kanso.jp", Founders: []string{"Hiro Tanaka"}},
	{ID: "volta-us", CompanyName: "Volta Systems", Website: "https://voltasystems.com", Founders: []string{"Erik Lind"}},
	{ID: "volta-se", CompanyName: "Volta Systems AB", Website: "https://voltasystems.se", Founders: []string{"Karin Berg"}},
	{ID: "piedpiper", CompanyName: "Pied Piper", Website: "https://piedpiper.com", Founders: []string{"Richard Hendricks"}},
	{ID: "hooli", CompanyName: "Hooli", Website: "https://hooli.xyz", Founders: []string{"Gavin Belson"}},
	{ID: "orbital", CompanyName: "Orbital Foods Pty Ltd", Website: "https://www.orbitalfoods.com.au", Founders: []string{"Alex Kim"}},
	{ID: "monster", CompanyName: "Mønster ApS", Website: "https://monster.dk", Founders: []string{"Søren Østergaard"}},
	{ID: "greenfield-analytics", CompanyName: "Greenfield Analytics", Website: "https://greenfield.ai", Founders: []string{"Maya Chen"}},
	{ID: "greenfield-robotics", CompanyName: "Greenfield Robotics", Website: "https://greenfieldrobotics.com", Founders: []string{"Omar Haddad"}},
	{ID: "lumen", CompanyName: "Lumen", Website: "https://lumen.health", Founders: []string{"Ida Novak"}},
	{ID: "lumentum", CompanyName: "Lumentum Corp", Website: "https://lumentum.com", Founders: []string{"Ian Ross"}},
	{ID: "tidal", CompanyName: "Tidal Compute", Founders: []string{"Alex Kim", "Bea Lopez"}},
	{ID: "quantum", CompanyName: "Quantum Leap S.p.A.", Website: "https://qleap.it", Founders: []string{"Giulia Rossi"}},
	{ID: "dutch", CompanyName: "Van Dijk Logistics B.V.", Website: "https://vandijk.nl", Founders: []string{"Joost van Dijk"}},
	{ID: "obrien", CompanyName: "O'Reilly Ventures", Website: "oreilly.vc", Founders: []string{"Ciara O’Reilly"}},
	{ID: "x", CompanyName: "X Corp", Website: "https://x.com", Founders: []string{"Linda Yaccarino"}},
	{ID: "moscow", CompanyName: "Яндекс", Website: "https://yandex.ru", Founders: []string{"Аркадий Волож"}},
	{ID: "sparkle", CompanyName: "Sparkle Labs", Founders: []string{"Ben Ito"}},
	{ID: "sparkly", CompanyName: "Sparkly Labs", Founders: []string{"Eva Roth"}},
	{ID: "strasse", CompanyName: "Straße Mobility UG", Website: "https://strasse-mobility.de", Founders: []string{"Jürgen Groß"}},
	{ID: "hyphen", CompanyName: "Data-Bricks Europe", Website: "https://data-bricks.eu", Founders: []string{"Ali Ghodsi"}},
}

func TestLookup(t *testing.T) {
	ix := Build(companies)
	tests := map[string]struct {
		query     string
		want      Outcome
		id        string   // Best.ID when Matched
		matchedOn string   // Best.MatchedOn when Matched
		exact     bool     // Best.Score is 1 when Matched
		ids       []string // Candidates IDs in order when Ambiguous
	}{
		"exact name":                       {query: "Northwind Labs, Inc.", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"lower case":                       {query: "northwind labs", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"upper case":                       {query: "NORTHWIND LABS", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"extra spacing":                    {query: "  northwind    labs  ", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"split words":                      {query: "north wind labs", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"joined words":                     {query: "northwindlabs", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"camel case joined":                {query: "NorthwindLabs", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"hyphen instead of space":          {query: "northwind-labs", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"punctuation":                      {query: "northwind. labs!", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"hyphen in name dropped":           {query: "databricks europe", want: Matched, id: "hyphen", matchedOn: OnCompanyName, exact: true},
		"apostrophe dropped":               {query: "OReilly Ventures", want: Matched, id: "obrien", matchedOn: OnCompanyName, exact: true},
		"typographic apostrophe":           {query: "O’Reilly ventures", want: Matched, id: "obrien", matchedOn: OnCompanyName, exact: true},
		"ampersand as and":                 {query: "smith and sons", want: Matched, id: "smith", matchedOn: OnCompanyName, exact: true},
		"ampersand kept":                   {query: "Smith&Sons", want: Matched, id: "smith", matchedOn: OnCompanyName, exact: true},
		"suffix inc dropped":               {query: "Northwind Labs Inc", want: Matched, id: "northwind", matchedOn: OnCompanyName, exact: true},
		"suffix in query only":             {query: "Hooli LLC", want: Matched, id: "hooli", matchedOn: OnCompanyName, exact: true},
		"suffix gmbh in name only":         {query: "acme robotics", want: Matched, id: "acme", matchedOn: OnCompanyName, exact: true},
		"suffix replaced":                  {query: "Acme Robotics Ltd.", want: Matched, id: "acme", matchedOn: OnCompanyName, exact: true},
		"pty ltd both dropped":             {query: "orbital foods", want: Matched, id: "orbital", matchedOn: OnCompanyName, exact: true},
		"dotted spa":                       {query: "quantum leap spa", want: Matched, id: "quantum", matchedOn: OnCompanyName, exact: true},
		"dotted bv":                        {query: "van dijk logistics", want: Matched, id: "dutch", matchedOn: OnCompanyName, exact: true},
		"dotted kk":                        {query: "KANSO", want: Matched, id: "kanso", matchedOn: OnCompanyName, exact: true},
		"and co dropped":                   {query: "Smith & Sons & Co.", want: Matched, id: "smith", matchedOn: OnCompanyName, exact: true},
		"single letter name with suffix":   {query: "x corp.", want: Matched, id: "x", matchedOn: OnCompanyName, exact: true},
		"accent in query":                  {query: "Café Crème", want: Matched, id: "cafe", matchedOn: OnCompanyName, exact: true},
		"accent omitted":                   {query: "cafe creme", want: Matched, id: "cafe", matchedOn: OnCompanyName, exact: true},
		"diaeresis omitted":                {query: "zoe analytics", want: Matched, id: "zoe", matchedOn: OnCompanyName, exact: true},
		"o with stroke":                    {query: "monster", want: Matched, id: "monster", matchedOn: OnCompanyName, exact: true},
		"sharp s spelled out":              {query: "strasse mobility", want: Matched, id: "strasse", matchedOn: OnCompanyName, exact: true},
		"full-width letters":               {query: "ＡＣＭＥ Ｒｏｂｏｔｉｃｓ", want: Matched, id: "acme", matchedOn: OnCompanyName, exact: true},
		"founder sharp s":                  {query: "Jurgen Gross", want: Matched, id: "strasse", matchedOn: OnFounderName, exact: true},
		"cyrillic":                         {query: "яндекс", want: Matched, id: "moscow", matchedOn: OnCompanyName, exact: true},
		"domain":                           {query: "northwind.io", want: Matched, id: "northwind", matchedOn: OnWebsite, exact: true},
		"domain with www":                  {query: "www.northwind.io", want: Matched, id: "northwind", matchedOn: OnWebsite, exact: true},
		"url with path":                    {query: "https://northwind.io/about", want: Matched, id: "northwind", matchedOn: OnWebsite, exact: true},
		"subdomain":                        {query: "app.northwind.io", want: Matched, id: "northwind", matchedOn: OnWebsite, exact: true},
		"domain under second level suffix": {query: "orbitalfoods.com.au", want: Matched, id: "orbital", matchedOn: OnWebsite, exact: true},
		"domain label alone":               {query: "heliosdata", want: Matched, id: "helios", matchedOn: OnCompanyName, exact: true},
		"domain label differs from name":   {query: "qleap", want: Matched, id: "quantum", matchedOn: OnWebsite},
		"domain with other tld":            {query: "piedpiper.org", want: Matched, id: "piedpiper", matchedOn: OnCompanyName},
		"domain of hyphenated label":       {query: "acme-robotics.de", want: Matched, id: "acme", matchedOn: OnWebsite, exact: true},
		"same domain label two tlds":       {query: "voltasystems.se", want: Matched, id: "volta-se", matchedOn: OnWebsite, exact: true},
		"founder name":                     {query: "jane doe", want: Matched, id: "northwind", matchedOn: OnFounderName, exact: true},
		"founder name reordered case":      {query: "RICHARD HENDRICKS", want: Matched, id: "piedpiper", matchedOn: OnFounderName, exact: true},
		"founder with accents omitted":     {query: "elodie durand", want: Matched, id: "cafe", matchedOn: OnFounderName, exact: true},
		"founder nordic letters":           {query: "soren ostergaard", want: Matched, id: "monster", matchedOn: OnFounderName, exact: true},
		"founder typo":                     {query: "richard hendriks", want: Matched, id: "piedpiper", matchedOn: OnFounderName},
		"second founder":                   {query: "ravi patel", want: Matched, id: "northwind", matchedOn: OnFounderName, exact: true},
		"founder of two companies":         {query: "Alex Kim", want: Ambiguous, ids: []string{"orbital", "tidal"}},
		"typo missing letter":              {query: "nortwind labs", want: Matched, id: "northwind", matchedOn: OnCompanyName},
		"typo in second word":              {query: "northwnd labs", want: Matched, id: "northwind", matchedOn: OnCompanyName},
		"typo transposition":               {query: "piedpipre", want: Matched, id: "piedpiper", matchedOn: OnCompanyName},
		"typo substitution":                {query: "pied pipet", want: Matched, id: "piedpiper", matchedOn: OnCompanyName},
		"typo extra letter":                {query: "hoolli", want: Matched, id: "hooli", matchedOn: OnCompanyName},
		"typo without second word":         {query: "nortwind", want: Matched, id: "northwind", matchedOn: OnWebsite},
		"typo and legal suffix":            {query: "acme robotcs gmbh", want: Matched, id: "acme", matchedOn: OnCompanyName},
		"first word of unique name":        {query: "northwind", want: Matched, id: "northwind", matchedOn: OnWebsite},
		"unique prefix":                    {query: "pied pip", want: Matched, id: "piedpiper", matchedOn: OnCompanyName},
		"prefix shared by two":             {query: "north", want: Ambiguous, ids: []string{"northstar", "northwind"}},
		"word prefix shared by two":        {query: "greenfield", want: Ambiguous, ids: []string{"greenfield-analytics", "greenfield-robotics"}},
		"three letter prefix shared":       {query: "gre", want: Ambiguous, ids: []string{"greenfield-analytics", "greenfield-robotics"}},
		"exact beats longer name":          {query: "brightwave", want: Matched, id: "brightwave", matchedOn: OnCompanyName, exact: true},
		"exact beats longer single word":   {query: "lumen", want: Matched, id: "lumen", matchedOn: OnCompanyName, exact: true},
		"longer name still reachable":      {query: "lumentum", want: Matched, id: "lumentum", matchedOn: OnCompanyName, exact: true},
		"same name after suffixes":         {query: "volta systems", want: Ambiguous, ids: []string{"volta-us", "volta-se"}},
		"typo equally close to two":        {query: "helis data", want: Ambiguous, ids: []string{"helios", "helix"}},
		"typo one letter from two":         {query: "sparkli labs", want: Ambiguous, ids: []string{"sparkle", "sparkly"}},
		"not found":                        {query: "stripe", want: NotFound},
		"not found long":                   {query: "international business machines", want: NotFound},
		"not found unknown domain":         {query: "https://example.org/", want: NotFound},
		"too many typos":                   {query: "nrthwd lbs", want: NotFound},
		"short non-matching":               {query: "zz", want: NotFound},
		"empty":                            {query: "", want: NotFound},
		"blank":                            {query: "   ", want: NotFound},
		"punctuation only":                 {query: "&-.!", want: NotFound},
		"legal suffix only":                {query: "GmbH", want: NotFound},
		"non-domain dotted name":           {query: "node.js", want: NotFound},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ix.Lookup(tc.query)
			if got.Outcome != tc.want {
				t.Fatalf("Lookup(%q) outcome = %v, want %v (best %+v, candidates %+v)", tc.query, got.Outcome, tc.want, got.Best, got.Candidates)
			}
			switch tc.want {
			case Matched:
				if got.Best.ID != tc.id || got.Best.MatchedOn != tc.matchedOn {
					t.Errorf("Lookup(%q) best = %+v, want id %q matched on %q", tc.query, got.Best, tc.id, tc.matchedOn)
				}
				if tc.exact != (got.Best.Score == 1) {
					t.Errorf("Lookup(%q) score = %v, want exact %v", tc.query, got.Best.Score, tc.exact)
				}
				if got.Best.Score < Threshold || got.Best.Score > 1 {
					t.Errorf("Lookup(%q) score = %v, want within [%v, 1]", tc.query, got.Best.Score, Threshold)
				}
			case Ambiguous:
				var ids []string
				for _, c := range got.Candidates {
					ids = append(ids, c.ID)
				}
				if !slices.Equal(ids, tc.ids) {
					t.Errorf("Lookup(%q) candidates = %v, want %v (%+v)", tc.query, ids, tc.ids, got.Candidates)
				}
			}
		})
	}
}

// TestLookupPrefixRule checks the decisions between companies whose names begin alike.
func TestLookupPrefixRule(t *testing.T) {
	ix := Build([]Doc{
		{ID: "1", CompanyName: "Northwind"},
		{ID: "2", CompanyName: "Northwind Labs"},
		{ID: "3", CompanyName: "Northstar"},
	})
	tests := map[string]struct {
		query string
		want  Outcome
		ids   []string
	}{
		"exact name beats longer name": {query: "northwind", want: Matched, ids: []string{"1"}},
		"longer name matched exactly":  {query: "Northwind Labs Ltd", want: Matched, ids: []string{"2"}},
		"prefix of three names":        {query: "north", want: Ambiguous, ids: []string{"3", "1", "2"}},
		"prefix of one name":           {query: "northst", want: Matched, ids: []string{"3"}},
		"prefix of two longer names":   {query: "northw", want: Ambiguous, ids: []string{"1", "2"}},
		"two letters are not a prefix": {query: "no", want: NotFound},
		"typo closest to shorter name": {query: "nortwind", want: Matched, ids: []string{"1"}},
		"typo closest to longer name":  {query: "nortwind labs", want: Matched, ids: []string{"2"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ix.Lookup(tc.query)
			var ids []string
			if got.Outcome == Matched {
				ids = []string{got.Best.ID}
			}
			for _, c := range got.Candidates {
				ids = append(ids, c.ID)
			}
			if got.Outcome != tc.want || !slices.Equal(ids, tc.ids) {
				t.Errorf("Lookup(%q) = %v %v, want %v %v", tc.query, got.Outcome, ids, tc.want, tc.ids)
			}
		})
	}
}

func TestLookupCandidateFields(t *testing.T) {
	ix := Build(companies)
	got := ix.Lookup("jane doe")
	want := Candidate{ID: "northwind", CompanyName: "Northwind Labs, Inc.", FounderName: "Jane Doe, Ravi Patel", MatchedOn: OnFounderName, Score: 1}
	if got.Outcome != Matched || got.Best != want {
		t.Errorf("Lookup(jane doe) = %v %+v, want matched %+v", got.Outcome, got.Best, want)
	}
}

func TestLookupAmbiguousIsSortedAndCapped(t *testing.T) {
	var docs []Doc
	for i := 9; i >= 0; i-- {
		docs = append(docs, Doc{ID: fmt.Sprintf("id-%d", i), CompanyName: fmt.Sprintf("Polaris %c", 'A'+i)})
	}
	docs = append(docs, Doc{ID: "id-dup", CompanyName: "Polaris A"})
	got := Build(docs).Lookup("polaris")
	if got.Outcome != Ambiguous {
		t.Fatalf("Lookup(polaris) outcome = %v, want ambiguous", got.Outcome)
	}
	var ids []string
	for _, c := range got.Candidates {
		ids = append(ids, c.ID)
	}
	want := []string{"id-0", "id-dup", "id-1", "id-2", "id-3"}
	if !slices.Equal(ids, want) {
		t.Errorf("Lookup(polaris) candidates = %v, want %v", ids, want)
	}
	for i := 1; i < len(got.Candidates); i++ {
		if got.Candidates[i].Score > got.Candidates[i-1].Score {
			t.Errorf("candidate %d score %v above candidate %d score %v", i, got.Candidates[i].Score, i-1, got.Candidates[i-1].Score)
		}
	}
}

func TestLookupIsDeterministic(t *testing.T) {
	reversed := slices.Clone(companies)
	slices.Reverse(reversed)
	a, b := Build(companies), Build(reversed)
	for _, q := range []string{"north", "greenfield", "volta systems", "helis data", "alex kim", "brightwave", "nortwind"} {
		ra, rb := a.Lookup(q), b.Lookup(q)
		if fmt.Sprint(ra) != fmt.Sprint(rb) {
			t.Errorf("Lookup(%q) depends on document order: %+v and %+v", q, ra, rb)
		}
	}
}

func TestLookupConcurrent(t *testing.T) {
	ix := Build(companies)
	want := ix.Lookup("nortwind labs")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 50 {
				if got := ix.Lookup("nortwind labs"); got.Best != want.Best || got.Outcome != want.Outcome {
					t.Errorf("concurrent Lookup = %+v, want %+v", got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

func TestEmptyIndex(t *testing.T) {
	ix := Build(nil)
	if ix.Len() != 0 {
		t.Errorf("Len() = %d, want 0", ix.Len())
	}
	if got := ix.Lookup("northwind"); got.Outcome != NotFound {
		t.Errorf("Lookup on empty index = %v, want not found", got.Outcome)
	}
}

func TestLen(t *testing.T) {
	if got := Build(companies).Len(); got != len(companies) {
		t.Errorf("Len() = %d, want %d", got, len(companies))
	}
}

// TestLookupOneWordTypos checks typos of one word: up to two edits (a transposition is one) of a name,
// the closer company winning and equally close companies staying ambiguous.
func TestLookupOneWordTypos(t *testing.T) {
	ix := Build([]Doc{
		{ID: "northwind", CompanyName: "Northwind"},
		{ID: "northwood", CompanyName: "Northwood"},
		{ID: "hooli", CompanyName: "Hooli"},
		{ID: "piedpiper", CompanyName: "Pied Piper"},
		{ID: "quillfern", CompanyName: "Quillfern Health Ltd"},
		{ID: "sparkle", CompanyName: "Sparkle Labs"},
		{ID: "sparkly", CompanyName: "Sparkly Labs"},
		{ID: "kite", CompanyName: "Kite"},
		{ID: "kate", CompanyName: "Kate"},
	})
	tests := map[string]struct {
		query string
		want  Outcome
		ids   []string
		score float64 // Best.Score when Matched, 0 to skip
	}{
		"missing letter":                 {query: "northwnd", want: Matched, ids: []string{"northwind"}, score: 1 - TypoStep},
		"missing letter early":           {query: "nortwind", want: Matched, ids: []string{"northwind"}, score: 1 - TypoStep},
		"transposition is one edit":      {query: "nrothwind", want: Matched, ids: []string{"northwind"}, score: 1 - TypoStep},
		"two edits":                      {query: "nothwnd", want: Matched, ids: []string{"northwind"}, score: 1 - 2*TypoStep},
		"closer of two wins":             {query: "northwod", want: Matched, ids: []string{"northwood"}},
		"equally close is ambiguous":     {query: "northwond", want: Ambiguous, ids: []string{"northwind", "northwood"}},
		"upper case typo":                {query: "NORTHWND", want: Matched, ids: []string{"northwind"}},
		"short word one edit":            {query: "hooil", want: Matched, ids: []string{"hooli"}},
		"short word two edits":           {query: "hxoi", want: NotFound},
		"three edits":                    {query: "nthwnd", want: NotFound},
		"joined name typo":               {query: "piedpipr", want: Matched, ids: []string{"piedpiper"}},
		"typo of a first word":           {query: "quilfern", want: Matched, ids: []string{"quillfern"}},
		"typo of a shared first word":    {query: "sparkel", want: Ambiguous, ids: []string{"sparkle", "sparkly"}},
		"four letters, one from two":     {query: "kote", want: Ambiguous, ids: []string{"kate", "kite"}},
		"three letters get no typo":      {query: "kxt", want: NotFound},
		"prefix typo needs a longer key": {query: "hoil", want: NotFound},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := ix.Lookup(tc.query)
			var ids []string
			if got.Outcome == Matched {
				ids = []string{got.Best.ID}
			}
			for _, c := range got.Candidates {
				ids = append(ids, c.ID)
			}
			if got.Outcome != tc.want || !slices.Equal(ids, tc.ids) {
				t.Fatalf("Lookup(%q) = %v %v, want %v %v (%+v %+v)", tc.query, got.Outcome, ids, tc.want, tc.ids, got.Best, got.Candidates)
			}
			if tc.score != 0 && math.Abs(got.Best.Score-tc.score) > 1e-9 {
				t.Errorf("Lookup(%q) score %v, want %v", tc.query, got.Best.Score, tc.score)
			}
		})
	}
}

// TestLookupOwnDomain checks that a company's own domain or website address finds it in any form, also
// under a top-level name that is on no public suffix list.
func TestLookupOwnDomain(t *testing.T) {
	ix := Build([]Doc{
		{ID: "northwind", CompanyName: "Northwind", Website: "https://northwind.example"},
		{ID: "northstar", CompanyName: "Northstar", Website: "https://www.northstar.test/"},
		{ID: "acme", CompanyName: "Acme Robotics", Website: "acme-robotics.de"},
	})
	tests := map[string]string{
		"northwind.example":                   "northwind",
		"www.northwind.example":               "northwind",
		"https://www.northwind.example/about": "northwind",
		"HTTP://Northwind.Example:443/":       "northwind",
		"northwind.example/":                  "northwind",
		"app.northwind.example":               "northwind",
		"northstar.test":                      "northstar",
		"https://northstar.test/team?x=1":     "northstar",
		"WWW.ACME-ROBOTICS.DE":                "acme",
	}
	for q, id := range tests {
		t.Run(q, func(t *testing.T) {
			got := ix.Lookup(q)
			if got.Outcome != Matched || got.Best.ID != id || got.Best.MatchedOn != OnWebsite || got.Best.Score != 1 {
				t.Errorf("Lookup(%q) = %v %+v, want %s on its website with score 1", q, got.Outcome, got.Best, id)
			}
		})
	}
	for _, q := range []string{"southwind.example", "https://elsewhere.example/northwind", "northwind.example.org"} {
		if got := ix.Lookup(q); got.Outcome == Matched && got.Best.Score == 1 {
			t.Errorf("Lookup(%q) = exact match %+v, want no exact website match", q, got.Best)
		}
	}
}

func TestTypoDistance(t *testing.T) {
	tests := []struct {
		q, k          string
		budget        int
		whole, prefix int
	}{
		{"northwind", "northwind", 2, 0, 0},
		{"northwnd", "northwind", 2, 1, 1},
		{"nrothwind", "northwind", 2, 1, 1},     // a transposition is one edit
		{"nothwnd", "northwind", 2, 2, 2},       // two deletions
		{"nthwnd", "northwind", 2, 3, 3},        // beyond the budget
		{"northwnd", "northwindlabs", 2, 3, 1},  // one edit from a prefix
		{"northwind", "northwindlabs", 1, 2, 0}, // the whole key is too long for the budget
		{"ab", "ba", 1, 1, 1},
		{"kite", "", 1, 2, 2},
	}
	var rows []int
	for _, tc := range tests {
		whole, prefix := typoDistance([]rune(tc.q), []rune(tc.k), tc.budget, &rows)
		if whole != tc.whole || prefix != tc.prefix {
			t.Errorf("typoDistance(%q, %q, %d) = %d, %d, want %d, %d", tc.q, tc.k, tc.budget, whole, prefix, tc.whole, tc.prefix)
		}
	}
}
