"""cf — the Chicken Foot (Pata de Gallina) domino toolkit."""

__version__ = "0.1.0"
