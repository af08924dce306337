"""The steps of a Hilo round. Each state is in exactly one of them."""

START = "start"                  # chance: the top of the draw pile is turned up to start the discard
SETUP = "setup"                  # each player reveals two grid cards (any order: SIMULTANEOUS)
SETUP_REVEAL = "setup-reveal"    # chance: the card a player chose in setup is turned up
TIE = "tie"                      # the table names the youngest of the players tied for first
TURN = "turn"                    # the player takes the discard (A) or draws (B)
DRAW = "draw"                    # chance: the card drawn from the pile
DRAWN = "drawn"                  # the player places the drawn card (B1) or discards it and flips (B2)
SWAP_REVEAL = "swap-reveal"      # chance: a face-down card swapped out goes face up onto the discard
FLIP_REVEAL = "flip-reveal"      # chance: the face-down card flipped in B2
HILO = "hilo"                    # the player removes a HILO line (or keeps it when that is allowed)
SLIDE = "slide"                  # after a diagonal, the player closes the gap
FINAL_REVEAL = "final-reveal"    # chance: the round is over, the face-down cards are turned up
OVER = "over"                    # the game is over

ALL = (START, SETUP, SETUP_REVEAL, TIE, TURN, DRAW, DRAWN, SWAP_REVEAL, FLIP_REVEAL, HILO, SLIDE,
       FINAL_REVEAL, OVER)
REVEALS = (SETUP_REVEAL, SWAP_REVEAL, FLIP_REVEAL, FINAL_REVEAL)  # a grid cell is being turned up
CHANCE_PHASES = (START, DRAW) + REVEALS
MOVER_PHASES = (TURN, DRAWN, HILO, SLIDE)  # one seat decides
