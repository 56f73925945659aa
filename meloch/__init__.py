"""meloch: Duel of Meloch (Scythe vs Expeditions), a digital edition."""

__version__ = "0.1.0"
