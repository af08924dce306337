"""Hold Up card readings for the tests: a table view as the camera would read it surely."""
import random

from engine.holdup import EXAMPLE_DECK, Gem
from engine.table import EMPTY, FACE_DOWN

GEMS = [str(Gem(stone, value)) for stone, value, _ in EXAMPLE_DECK]
OTHER = {"gv G": "gv V", "gv V": "gv G", FACE_DOWN: EMPTY, EMPTY: FACE_DOWN}


def read(view, seed=0):
    """A sure reading of a table view: 0.97 for the card lying in each place, the rest on two
    other cards (the other side of a GV card, or of the draw pile)."""
    rng = random.Random(seed)

    def place(label):
        if label in OTHER:
            return {label: 0.97, OTHER[label]: 0.03}
        first, second = rng.sample([gem for gem in GEMS if gem != label], 2)
        return {label: 0.97, first: 0.02, second: 0.01}
    return {"rows": [[place(card) for card in row] for row in view["rows"]], "draw_pile": place(view["draw_pile"]),
            "players": [{"gv": [place(face) for face in player["gv"]], "pile_top": place(player["pile_top"])}
                        for player in view["players"]]}
