"""El Salvador: DTEs issued, signed, transmitted to the Ministerio de Hacienda, held in contingency, sent as
lots, invalidated and delivered to the buyer; the IVA books."""
