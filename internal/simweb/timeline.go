package simweb

import "time"

// Kinds of Event, named like the signal types Radar should report for them.
const (
	KindFunding          = "funding"
	KindFounderDeparture = "founder_departure" // a founder leaves to start a named new company
	KindProductLaunch    = "product_launch"
	KindPartnership      = "partnership" // with a partner company founded by a named person
	KindTeamGrowth       = "team_growth"
	KindContraction      = "contraction"
	KindExecutiveChange  = "executive_change"
	KindAcquisition      = "acquisition"
	KindRecognition      = "recognition"
	KindLegal            = "legal"
	KindExpansion        = "expansion"
	KindOpenSource       = "open_source"
	KindOther            = "other" // news that changes nothing, such as a denied rumour
)

const day = 24 * time.Hour

// story is one company's news in the default timeline.
type story struct {
	slug    string
	history []news // published before the start
	next    []news // published after the start, one per step, companies taking turns
}

// news is one item of a story; ago applies to history only.
type news struct {
	ago               time.Duration
	kind, title, body string
}

// Timeline returns the default events for Companies(): for each company some history, visible
// from the start, and several items to come. The upcoming items are published one step apart,
// the companies taking turns, so that news keeps arriving for as long as the timeline lasts
// (about seventy steps).
func Timeline(step time.Duration) []Event {
	stories := stories()
	var events []Event
	for _, s := range stories {
		for _, n := range s.history {
			events = append(events, Event{At: -n.ago, Company: s.slug, Kind: n.kind, Title: n.title, Body: n.body})
		}
	}
	tick := 0
	for round, more := 0, true; more; round++ {
		more = false
		for _, s := range stories {
			if round >= len(s.next) {
				continue
			}
			more = true
			tick++
			n := s.next[round]
			events = append(events, Event{At: time.Duration(tick) * step, Company: s.slug, Kind: n.kind, Title: n.title, Body: n.body})
		}
	}
	return events
}

// stories holds the text of the default timeline. The companies never mention each other, so a
// news search for one company's name finds only that company's news.
func stories() []story {
	return []story{
		{
			slug: "tallowmere",
			history: []news{
				{210 * day, KindFunding, "Tallowmere Robotics raises €4.5M seed round",
					"Tallowmere Robotics has raised a €4.5M seed round led by Nordkapp Ventures to put its picking robots into more warehouses in Germany and the Netherlands."},
				{45 * day, KindProductLaunch, "Introducing Pickplan 2, our fleet planner",
					"Pickplan 2 schedules mixed fleets of Tallowmere picking robots and human pickers, cutting the walking distance per order by a third."},
			},
			next: []news{
				{0, KindTeamGrowth, "Tallowmere Robotics is hiring across engineering and field operations",
					"We plan to grow the team from 35 to 60 people this year, with new roles in Munich and Rotterdam."},
				{0, KindFounderDeparture, "Co-founder Oskar Brandvold leaves Tallowmere Robotics to start Kestrelgrip",
					"Oskar Brandvold, co-founder and CTO of Tallowmere Robotics, is leaving to found Kestrelgrip, a start-up building soft robotic grippers for food handling. Kestrelgrip is raising a pre-seed round. Annika Roos, our VP Engineering, becomes CTO."},
				{0, KindFunding, "Tallowmere Robotics raises €18M Series A",
					"Tallowmere Robotics has closed an €18M Series A led by Halvard Capital, with Nordkapp Ventures following on. The round pays for a launch in the United States."},
				{0, KindOpenSource, "The Pickplan scheduler is now open source",
					"We have released the core of the Pickplan scheduler under the Apache 2.0 licence, so integrators can plan robot and human picking in their own systems."},
				{0, KindExpansion, "Tallowmere Robotics opens its first US office in Columbus, Ohio",
					"Our new Columbus office will serve customers across the Midwest, starting with two third-party logistics providers."},
			},
		},
		{
			slug: "quillfern",
			history: []news{
				{120 * day, KindFunding, "Quillfern Health raises £2.1M seed round",
					"Quillfern Health has raised £2.1M led by Merriweather Partners to bring ambient note-taking to GP surgeries."},
			},
			next: []news{
				{0, KindRecognition, "Quillfern Health wins the Primary Care Pioneer Award",
					"Judges praised Quillfern Health for saving each GP an average of 70 minutes of typing per day."},
				{0, KindPartnership, "Quillfern Health partners with Tessaly Diagnostics, founded by Dr Owen Pryce",
					"Quillfern Health will pass structured notes to Tessaly Diagnostics, the pathology-ordering start-up founded by Dr Owen Pryce, so that test requests are drafted during the consultation."},
				{0, KindFunding, "Quillfern Health raises £11M Series A",
					"Quillfern Health has raised an £11M Series A led by Ashgrove Capital to reach 1,000 surgeries."},
				{0, KindExecutiveChange, "Quillfern Health appoints Dr Sara Lindahl as Chief Medical Officer",
					"Dr Sara Lindahl joins Quillfern Health from a regional hospital trust to lead clinical safety."},
				{0, KindTeamGrowth, "Quillfern Health doubles its clinical safety team",
					"We are hiring eight clinicians and engineers to review every model change before it reaches a surgery."},
			},
		},
		{
			slug: "brackenvolt",
			history: []news{
				{300 * day, KindFunding, "Brackenvolt raises $6M seed round",
					"Brackenvolt has raised a $6M seed round led by Larchmont Climate Fund to scale its sodium-ion cells."},
			},
			next: []news{
				{0, KindProductLaunch, "Brackenvolt ships its first 2 MWh sodium-ion container",
					"The first Brackenvolt container is now storing solar power at a farm in New Mexico."},
				{0, KindFunding, "Brackenvolt raises $40M Series B to build its first factory",
					"Brackenvolt has raised a $40M Series B led by Greywater Partners to build a cell factory."},
				{0, KindExpansion, "Brackenvolt picks Tucson for its first factory",
					"The Tucson plant will produce 1 GWh of cells a year and create 220 jobs."},
				{0, KindFounderDeparture, "Co-founder Hana Kowalczyk leaves Brackenvolt to launch Saltline Energy",
					"Hana Kowalczyk, co-founder and COO of Brackenvolt, has left to start Saltline Energy, which will recycle grid batteries. Saltline Energy has raised a $3M seed round."},
				{0, KindRecognition, "Brackenvolt named to the Climate Tech 50 list",
					"Brackenvolt is one of fifty companies recognised this year for cutting the cost of storing renewable power."},
			},
		},
		{
			slug: "ledgerwyn",
			history: []news{
				{400 * day, KindFunding, "Ledgerwyn raises £1.5M pre-seed",
					"Ledgerwyn has raised £1.5M from angel investors to build cash forecasting for small businesses."},
				{90 * day, KindFunding, "Ledgerwyn raises £7M seed round",
					"Ledgerwyn has raised a £7M seed round led by Kittering Partners."},
			},
			next: []news{
				{0, KindProductLaunch, "Ledgerwyn launches 13-week cash forecasts for accountants",
					"Accountants can now share a live 13-week cash forecast with every client from one Ledgerwyn workspace."},
				{0, KindOpenSource, "Ledgerwyn open-sources ledgerwyn-python, its Python SDK",
					"The ledgerwyn-python SDK is now open source under the MIT licence."},
				{0, KindExecutiveChange, "Ledgerwyn appoints Helen Achebe as Chief Financial Officer",
					"Helen Achebe joins Ledgerwyn after ten years in banking to lead finance and risk."},
				{0, KindFunding, "Ledgerwyn raises £24M Series A",
					"Ledgerwyn has raised a £24M Series A led by Calloway Growth, with Kittering Partners following on."},
				{0, KindExpansion, "Ledgerwyn launches in Ireland",
					"Ledgerwyn now connects to the five largest Irish banks and opens an office in Dublin."},
			},
		},
		{
			slug: "corvimesh",
			history: []news{
				{180 * day, KindFunding, "Corvimesh raises $9M seed round",
					"Corvimesh has raised a $9M seed round led by Bellrock Ventures."},
				{20 * day, KindOpenSource, "Meshgate 0.9 released",
					"Meshgate 0.9 adds device posture checks and single sign-on."},
			},
			next: []news{
				{0, KindOpenSource, "Meshgate 1.0: our zero-trust gateway is generally available",
					"Meshgate 1.0 is stable, open source and ready for production."},
				{0, KindPartnership, "Corvimesh partners with Palisade Works, founded by Ravi Menon",
					"Corvimesh will bundle the endpoint agent of Palisade Works, the start-up founded by Ravi Menon, with every Meshgate licence."},
				{0, KindLegal, "Corvimesh settles patent dispute with Ironlatch Networks",
					"Corvimesh and Ironlatch Networks have settled the patent lawsuit filed last year; terms were not disclosed."},
				{0, KindTeamGrowth, "Corvimesh triples its security research team",
					"We are hiring twelve security researchers in Austin and Lisbon."},
				{0, KindAcquisition, "Corvimesh acquires Tinderbox Labs",
					"Corvimesh has acquired Tinderbox Labs, the browser-isolation start-up, for an undisclosed sum."},
			},
		},
		{
			slug: "fennick-vale",
			history: []news{
				{150 * day, KindFunding, "Fennick & Vale raises €3M seed round",
					"Fennick & Vale has raised €3M led by Polder Food Fund to brew dairy proteins without cows."},
			},
			next: []news{
				{0, KindProductLaunch, "Fennick & Vale's first casein reaches cheesemakers",
					"Three artisan cheesemakers are now making cheese with Fennick & Vale casein."},
				{0, KindContraction, "Fennick & Vale pauses its pilot plant and cuts 12 roles",
					"Fennick & Vale is pausing its pilot plant near Utrecht and letting 12 people go while it looks for a manufacturing partner."},
				{0, KindFunding, "Fennick & Vale raises €14M Series A",
					"Fennick & Vale has raised a €14M Series A led by Aldermoor Capital to restart production."},
				{0, KindPartnership, "Fennick & Vale partners with Curdwell, the creamery founded by Agnes Thorvald",
					"Curdwell, founded by Agnes Thorvald, will turn Fennick & Vale proteins into cheese for supermarkets."},
			},
		},
		{
			slug: "orbweave",
			history: []news{
				{250 * day, KindFunding, "Orbweave Space raises $5M seed round",
					"Orbweave Space has raised $5M led by Perihelion Ventures to fly its first laser terminal."},
			},
			next: []news{
				{0, KindProductLaunch, "Orbweave Space demonstrates a 10 Gbps laser link in orbit",
					"Two Orbweave terminals held a 10 Gbps link for 40 minutes between satellites 800 km apart."},
				{0, KindFunding, "Orbweave Space raises $32M Series A",
					"Orbweave Space has raised a $32M Series A led by Meridian Deep Tech."},
				{0, KindTeamGrowth, "Orbweave Space doubles its Toulouse engineering team",
					"We are hiring 25 optical and RF engineers in Toulouse."},
				{0, KindFounderDeparture, "Orbweave Space co-founder Sigrun Aalto leaves to found Polarfold",
					"Sigrun Aalto, co-founder and CTO of Orbweave Space, has left to start Polarfold, a seed-stage company making deployable antennas for cubesats."},
				{0, KindRecognition, "Orbweave Space wins the Small Satellite Innovation Prize",
					"Orbweave Space was recognised for the first commercial laser crosslink between small satellites."},
			},
		},
		{
			slug: "thimbleway",
			history: []news{
				{365 * day, KindFunding, "Thimbleway raises £4M seed round",
					"Thimbleway has raised £4M led by Coldharbour Ventures."},
				{30 * day, KindTeamGrowth, "Thimbleway opens a fulfilment hub in Manchester",
					"Our new Manchester hub brings 30 new jobs in fulfilment and support."},
			},
			next: []news{
				{0, KindContraction, "Thimbleway lays off 30% of staff as marketplace growth slows",
					"Thimbleway is cutting 40 roles, about 30% of the company, after two quarters of falling orders."},
				{0, KindExecutiveChange, "Thimbleway appoints Harriet Cole as Chief Operating Officer",
					"Harriet Cole takes over operations from co-founder Rafael Quintero, who becomes an adviser."},
				{0, KindContraction, "Thimbleway closes its Manchester fulfilment hub",
					"Thimbleway will move fulfilment to a partner warehouse and close the Manchester hub next month."},
				{0, KindAcquisition, "Thimbleway agrees to be acquired by Spoolhouse Group for £18M",
					"Spoolhouse Group will acquire Thimbleway for £18M; the marketplace will keep its name."},
			},
		},
		{
			slug: "glassmoth",
			history: []news{
				{200 * day, KindFunding, "Glassmoth Labs raises $3.2M seed round",
					"Glassmoth Labs has raised $3.2M led by Tidewell Capital."},
				{60 * day, KindOpenSource, "moth-agent 0.5 released",
					"moth-agent 0.5 traces cold starts in three more serverless runtimes."},
			},
			next: []news{
				{0, KindOpenSource, "Glassmoth 1.0 is here",
					"The Glassmoth agent and dashboards reach 1.0, open source under Apache 2.0."},
				{0, KindFunding, "Glassmoth Labs raises $15M Series A",
					"Glassmoth Labs has raised a $15M Series A led by Fieldstone Ventures to build a hosted version."},
				{0, KindTeamGrowth, "Glassmoth Labs is hiring 20 engineers",
					"We are hiring 20 engineers, remote-first, across Europe and the Americas."},
				{0, KindOpenSource, "Introducing lampwick, an open-source tracing library",
					"lampwick adds distributed tracing to any function in three lines of code."},
				{0, KindFounderDeparture, "Glassmoth Labs co-founder Elias Stroud leaves to start Tracewind",
					"Elias Stroud, co-founder and CTO of Glassmoth Labs, is leaving to found Tracewind, a pre-seed start-up working on debugging tools for AI agents."},
			},
		},
		{
			slug: "hollowbirch",
			history: []news{
				{500 * day, KindFunding, "Hollowbirch Learning raises £2M seed round",
					"Hollowbirch Learning has raised £2M led by Slatehouse Ventures."},
			},
			next: []news{
				{0, KindProductLaunch, "Hollowbirch Learning launches a GCSE revision planner",
					"Pupils get a daily revision plan built from their own mistakes."},
				{0, KindRecognition, "Hollowbirch Learning wins the EdTech Impact Award",
					"An independent study found pupils using Hollowbirch improved by half a grade in a term."},
				{0, KindContraction, "Hollowbirch Learning cuts 15 roles after school budget freeze",
					"Hollowbirch Learning is reducing its team by 15 people as schools delay purchases."},
				{0, KindAcquisition, "Hollowbirch Learning to be acquired by Pennant Education Group",
					"Pennant Education Group has agreed to acquire Hollowbirch Learning; the deal is expected to close next quarter."},
			},
		},
		{
			slug: "quarrystone",
			history: []news{
				{100 * day, KindFunding, "Quarrystone raises €6M seed round",
					"Quarrystone has raised €6M led by Rhinegate Ventures."},
			},
			next: []news{
				{0, KindProductLaunch, "Quarrystone launches clause risk scoring in German and French",
					"Quarrystone now reviews contracts in German and French as well as English."},
				{0, KindLegal, "Quarrystone responds to a data-protection complaint",
					"A data-protection complaint has been filed against Quarrystone with the Irish regulator; the company says it will cooperate fully."},
				{0, KindPartnership, "Quarrystone partners with Briarwood Legal, founded by Catherine Moreau",
					"Briarwood Legal, the law firm founded by Catherine Moreau, will use Quarrystone for every commercial contract."},
				{0, KindFunding, "Quarrystone raises €22M Series A",
					"Quarrystone has raised a €22M Series A led by Oberlin Partners."},
				{0, KindOpenSource, "We are open-sourcing clausekit",
					"clausekit, the clause parser behind Quarrystone, is now open source."},
			},
		},
		{
			slug: "mossgate",
			history: []news{
				{220 * day, KindFunding, "Mossgate Mobility raises €8M seed round",
					"Mossgate Mobility has raised €8M led by Velo Partners to put cargo bikes on city streets."},
			},
			next: []news{
				{0, KindExpansion, "Mossgate Mobility launches in Lyon and Ghent",
					"Mossgate cargo bikes are now available to couriers in Lyon and Ghent."},
				{0, KindOther, "Mossgate Mobility denies rumours of a sale",
					"Mossgate Mobility has denied press reports that it is in talks to sell the company. \"We are not for sale and we are funded into next year,\" said chief executive Tilde Sørensen."},
				{0, KindContraction, "Mossgate Mobility withdraws from Ghent",
					"Mossgate Mobility will stop operating in Ghent at the end of the month and cut 9 roles there."},
				{0, KindFunding, "Mossgate Mobility raises €12M Series A",
					"Mossgate Mobility has raised a €12M Series A led by Canalside Capital."},
				{0, KindExecutiveChange, "Mossgate Mobility names Pieter Janssens chief financial officer",
					"Pieter Janssens joins Mossgate Mobility as CFO."},
			},
		},
		{
			slug: "wrenfield",
			history: []news{
				{130 * day, KindFunding, "Wrenfield Agritech raises £1.8M seed round",
					"Wrenfield Agritech has raised £1.8M led by Fallowfield Ventures."},
			},
			next: []news{
				{0, KindPartnership, "Wrenfield Agritech partners with Loamline, founded by Dara Whitcombe",
					"Loamline, the soil-carbon verification start-up founded by Dara Whitcombe, will use Wrenfield sensor data to certify carbon stored in vineyard soils."},
				{0, KindProductLaunch, "Wrenfield Agritech launches frost alerts for orchards",
					"Growers get a text message two hours before frost reaches their trees."},
				{0, KindFunding, "Wrenfield Agritech raises £6.5M Series A",
					"Wrenfield Agritech has raised a £6.5M Series A led by Harrowdown Capital."},
				{0, KindTeamGrowth, "Wrenfield Agritech opens an office in Bordeaux",
					"Wrenfield Agritech is hiring agronomists and field engineers for vineyards in France."},
			},
		},
		{
			slug: "driftpoint",
			history: []news{
				{90 * day, KindFunding, "Driftpoint Data raises $4M seed round",
					"Driftpoint Data has raised $4M led by Ninefold Ventures."},
				{10 * day, KindOpenSource, "pg-drift 0.3 released",
					"pg-drift 0.3 builds vector indexes in the background without locking tables."},
			},
			next: []news{
				{0, KindOpenSource, "Driftpoint 1.0: vector search inside Postgres",
					"Driftpoint 1.0 is stable and open source; upgrade with a single extension update."},
				{0, KindRecognition, "Driftpoint Data tops an independent vector search benchmark",
					"Driftpoint answered queries fastest on four of five datasets in an independent benchmark."},
				{0, KindFunding, "Driftpoint Data raises $28M Series A",
					"Driftpoint Data has raised a $28M Series A led by Westerly Partners."},
				{0, KindPartnership, "Driftpoint Data partners with Skerry Cloud, founded by Ana Folau",
					"Skerry Cloud, the managed Postgres host founded by Ana Folau, will offer Driftpoint on every plan."},
				{0, KindExecutiveChange, "Driftpoint Data hires Moritz Engel as VP Engineering",
					"Moritz Engel joins Driftpoint Data to lead engineering."},
			},
		},
	}
}
