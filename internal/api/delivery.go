package api

// registerDelivery registers the operations beyond the specification that help a team keep up with what is new
// and move data in and out: read positions, rule previews, bulk creates and CSV exports.
func (s *Server) registerDelivery() {
	s.registerSeen()
	s.registerPreview()
	s.registerBatch()
}
