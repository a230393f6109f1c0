"""Printing: the PDFs the hall needs on paper, made from the data the screens show.

- :mod:`.slips`: a result slip per game, for the players and the arbiter to sign;
- :mod:`.cards`: a card per board, for the tables;
- :mod:`.standings`: the standings, with each tie split explained;
- :mod:`.bracket`: the bracket and the schedule, at the hall's time of day;
- :mod:`.placings`: the final placings and prizes.

Each builds HTML from the views the hall and the consoles show
(:mod:`orchestrator.views`) and the words of :mod:`playoff_formats.words`, so a name,
a round or a result reads on paper as on the screens; :mod:`.games` is what slips and
cards say of a game, :mod:`.sources` what a printout is made from, :mod:`.layout` the
page (A4 or US Letter, its font and print CSS), :mod:`.documents` each printout whole,
and :mod:`.render` makes the PDF (WeasyPrint, loaded only then).
"""

# Each module imports what it needs when it is imported: the service's pool of
# processes imports `render` alone, and nothing here loads WeasyPrint.
__all__ = ["bracket", "cards", "documents", "games", "layout", "placings", "render",
           "slips", "sources", "standings"]
