package simweb

// Companies returns the fictional companies of the default web. Founders' and companies' profile
// links are only text on the pages: some are left out on purpose, so that enrichment finds all
// of them for some companies (Ledgerwyn, Glassmoth Labs, Driftpoint Data) and only part for others.
func Companies() []Company {
	return []Company{
		{
			Name: "Tallowmere Robotics", Slug: "tallowmere", Sector: "Robotics",
			Summary: "Autonomous picking robots that let mid-sized warehouses automate without rebuilding.",
			Founders: []Founder{
				{Name: "Ines Marchetti", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/ines-marchetti", X: "https://x.com/inesmarchetti"},
				{Name: "Oskar Brandvold", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/oskar-brandvold", GitHub: "https://github.com/obrandvold"},
			},
			LinkedIn: "https://www.linkedin.com/company/tallowmere-robotics", X: "https://x.com/tallowmere", GitHub: "https://github.com/tallowmere",
			Repos: []string{"pickplan", "tallowmere-ros"},
		},
		{
			Name: "Quillfern Health", Slug: "quillfern", Sector: "Health tech", Atom: true,
			Summary: "Ambient clinical notes for GP surgeries, written while the doctor listens.",
			Founders: []Founder{
				{Name: "Amara Osei", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/amara-osei-md", X: "https://x.com/dramaraosei"},
				{Name: "Felix Harrowgate", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/felix-harrowgate"},
			},
			LinkedIn: "https://www.linkedin.com/company/quillfern-health", X: "https://x.com/quillfernhealth",
		},
		{
			Name: "Brackenvolt", Slug: "brackenvolt", Sector: "Climate and energy",
			Summary: "Sodium-ion battery storage for grid operators and solar farms.",
			Founders: []Founder{
				{Name: "Rosa Delacroix-Ng", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/rosa-delacroix-ng", X: "https://x.com/rosadng"},
				{Name: "Yusuf Adeyemi", Role: "Co-founder and Chief Scientist", LinkedIn: "https://www.linkedin.com/in/yusuf-adeyemi-phd"},
				{Name: "Hana Kowalczyk", Role: "Co-founder and COO"},
			},
			LinkedIn: "https://www.linkedin.com/company/brackenvolt", X: "https://x.com/brackenvolt",
		},
		{
			Name: "Ledgerwyn", Slug: "ledgerwyn", Sector: "Fintech", Atom: true,
			Summary: "Cash forecasting and treasury for small businesses, straight from the bank feed.",
			Founders: []Founder{
				{Name: "Priya Raghunathan", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/priya-raghunathan", X: "https://x.com/priyarag", GitHub: "https://github.com/priyarag"},
				{Name: "Tom Ellery", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/tom-ellery", X: "https://twitter.com/tomellery", GitHub: "https://github.com/tellery"},
			},
			LinkedIn: "https://www.linkedin.com/company/ledgerwyn", X: "https://x.com/ledgerwyn", GitHub: "https://github.com/ledgerwyn",
			Repos: []string{"ledgerwyn-python", "openbank-mock"},
		},
		{
			Name: "Corvimesh", Slug: "corvimesh", Sector: "Cybersecurity",
			Summary: "Zero-trust network access that a small IT team can deploy in an afternoon.",
			Founders: []Founder{
				{Name: "Daniel Aurelio", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/daniel-aurelio"},
				{Name: "Mei-Lin Zhao", Role: "Co-founder and CTO", X: "https://twitter.com/meilinzhao", GitHub: "https://github.com/mlzhao"},
			},
			LinkedIn: "https://www.linkedin.com/company/corvimesh", X: "https://twitter.com/corvimesh", GitHub: "https://github.com/corvimesh",
			Repos: []string{"meshgate", "corvi-policy"},
		},
		{
			Name: "Fennick & Vale", Slug: "fennick-vale", Sector: "Food tech",
			Summary: "Precision-fermented dairy proteins for cheesemakers who want milk without the herd.",
			Founders: []Founder{
				{Name: "Lotte Vermeulen", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/lotte-vermeulen"},
				{Name: "Aurélien Fabre", Role: "Co-founder and Chief Science Officer", LinkedIn: "https://www.linkedin.com/in/aurelien-fabre"},
			},
			LinkedIn: "https://www.linkedin.com/company/fennick-and-vale",
		},
		{
			Name: "Orbweave Space", Slug: "orbweave", Sector: "Space", Atom: true,
			Summary: "Laser crosslinks that let small satellites talk to each other at gigabit speeds.",
			Founders: []Founder{
				{Name: "Kwame Mensah-Hart", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/kwame-mensah-hart", X: "https://x.com/kwamemh"},
				{Name: "Sigrun Aalto", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/sigrun-aalto", X: "https://x.com/sigrunaalto", GitHub: "https://github.com/saalto"},
			},
			LinkedIn: "https://www.linkedin.com/company/orbweave-space", X: "https://x.com/orbweavespace",
		},
		{
			Name: "Thimbleway", Slug: "thimbleway", Sector: "Consumer marketplace",
			Summary: "A marketplace for independent makers of craft and sewing supplies.",
			Founders: []Founder{
				{Name: "Beatrix Lum", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/beatrix-lum", X: "https://x.com/beatrixlum"},
				{Name: "Rafael Quintero", Role: "Co-founder and COO", X: "https://x.com/rafquintero"},
			},
			LinkedIn: "https://www.linkedin.com/company/thimbleway", X: "https://x.com/thimbleway",
		},
		{
			Name: "Glassmoth Labs", Slug: "glassmoth", Sector: "Developer tools",
			Summary: "Open-source observability for serverless functions.",
			Founders: []Founder{
				{Name: "Noor Haddad", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/noor-haddad", X: "https://x.com/noorhaddad", GitHub: "https://github.com/noorhaddad"},
				{Name: "Elias Stroud", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/elias-stroud", X: "https://x.com/eliasstroud", GitHub: "https://github.com/estroud"},
			},
			LinkedIn: "https://www.linkedin.com/company/glassmoth-labs", X: "https://x.com/glassmothlabs", GitHub: "https://github.com/glassmoth",
			Repos: []string{"moth-agent", "moth-collector", "lampwick"},
		},
		{
			Name: "Hollowbirch Learning", Slug: "hollowbirch", Sector: "Education",
			Summary: "Adaptive maths tutoring that plans each pupil's next lesson.",
			Founders: []Founder{
				{Name: "Grace Abernethy", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/grace-abernethy"},
				{Name: "Sunil Varma", Role: "Co-founder and Chief Product Officer", LinkedIn: "https://www.linkedin.com/in/sunil-varma", X: "https://x.com/sunilvarma"},
			},
			LinkedIn: "https://www.linkedin.com/company/hollowbirch-learning", X: "https://x.com/hollowbirch",
		},
		{
			Name: "Quarrystone", Slug: "quarrystone", Sector: "Legal tech", Atom: true,
			Summary: "Contract review that flags risky clauses before the lawyers do.",
			Founders: []Founder{
				{Name: "Marguerite Okafor", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/marguerite-okafor", X: "https://x.com/mokafor"},
				{Name: "Jonas Feldhaus", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/jonas-feldhaus", GitHub: "https://github.com/jfeldhaus"},
			},
			LinkedIn: "https://www.linkedin.com/company/quarrystone", GitHub: "https://github.com/quarrystone-ai",
			Repos: []string{"clausekit"},
		},
		{
			Name: "Mossgate Mobility", Slug: "mossgate", Sector: "Mobility",
			Summary: "Shared cargo e-bikes for last-mile city deliveries.",
			Founders: []Founder{
				{Name: "Tilde Sørensen", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/tilde-sorensen", X: "https://x.com/tildesorensen"},
				{Name: "Marco Benedetti", Role: "Co-founder and COO", LinkedIn: "https://www.linkedin.com/in/marco-benedetti"},
			},
			LinkedIn: "https://www.linkedin.com/company/mossgate-mobility", X: "https://x.com/mossgatebikes",
		},
		{
			Name: "Wrenfield Agritech", Slug: "wrenfield", Sector: "Agritech",
			Summary: "Soil sensors and irrigation advice for vineyards and orchards.",
			Founders: []Founder{
				{Name: "Isla McCrae", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/isla-mccrae"},
				{Name: "Tomasz Wierzbicki", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/tomasz-wierzbicki", GitHub: "https://github.com/twierzbicki"},
			},
			LinkedIn: "https://www.linkedin.com/company/wrenfield-agritech", X: "https://x.com/wrenfieldag",
		},
		{
			Name: "Driftpoint Data", Slug: "driftpoint", Sector: "Data infrastructure", Atom: true,
			Summary: "A vector database that runs inside your Postgres.",
			Founders: []Founder{
				{Name: "Lena Achterberg", Role: "Co-founder and CEO", LinkedIn: "https://www.linkedin.com/in/lena-achterberg", X: "https://x.com/lenaachterberg", GitHub: "https://github.com/lachterberg"},
				{Name: "Caio Moreira", Role: "Co-founder and CTO", LinkedIn: "https://www.linkedin.com/in/caio-moreira", X: "https://x.com/caiomoreira", GitHub: "https://github.com/caiomoreira"},
			},
			LinkedIn: "https://www.linkedin.com/company/driftpoint-data", X: "https://x.com/driftpointdata", GitHub: "https://github.com/driftpoint",
			Repos: []string{"driftpoint-server", "pg-drift"},
		},
	}
}
