"""The network server: lobby, seats, persistence and live updates.  It knows no rule of either game:
it talks to the games only through the engine protocol, the games registry and the bots."""
