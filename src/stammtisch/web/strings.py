"""Every text the browser's scripts show, marked with ``N_`` so that Babel extracts it into the
catalogs; ``/api/i18n/{lang}`` serves them translated (docs/web.md).

One section per script of the frame: a module-level tuple with an UPPER_CASE name (``FRAME``,
``LOBBY``); ``all_texts()`` finds every section by itself, and adds the texts of each registered
game's browser module, which its game folder lists (``GameSpec.browser_texts``).
The scripts call ``t("…")`` with exactly these English texts (``tests/web/test_strings.py``
checks that each is listed), with named ``{fields}`` filled in by the script.
"""

from __future__ import annotations

from stammtisch.i18n import N_
from stammtisch.registry import games

# chat.js: the table chat (besides the frame's "Seat {number}").
CHAT = (
    N_("Table chat"),
    N_("No messages yet."),
    N_("Spectators read the chat; only the players write."),
    N_("Your message"),
    N_("Send"),
    N_("You are writing too fast: wait {seconds} s before your next message."),
    N_("This table's chat is full."),
    N_("This message cannot be sent: one line of plain text, at most {count} characters."),
)

# app.js with its parts (tablepage.js, decision.js, sealed.js, seats.js, notices.js, waiting.js) and common.js:
# the game page's frame, waiting room and top bar.
FRAME = (
    N_("time ran out: a stand-in plays"),
    N_("left the game: a stand-in plays"),
    N_("away: a stand-in plays"),
    N_("Real time: {time} per player, +{seconds} s per move"),
    N_("Turn-based: {time} per move"),
    N_("{days} d {hours} h"),
    N_("Take my seat back"),
    N_("Let a bot play for me"),
    N_("Leave the game"),
    N_("Leave the game for good? A bot plays your seat, and the host may invite somebody else."),
    N_("Invite somebody to this seat"),
    N_("Your turn at table {table} ({game})"),
    N_("Your time at table {table} ({game}) runs out soon"),
    N_("Time left: {time}"),
    N_("This browser blocks notifications from this page."),
    N_("Notifications in this browser are on."),
    N_("Turn notifications off"),
    N_("Notify me in this browser when it is my turn"),
    N_("Saved: e-mails go to {address}."),
    N_("No more e-mails."),
    N_("E-mail me when it is my turn or my time runs low"),
    N_("Save"),
    N_("Stop the e-mails"),
    N_("Only you see this address."),
    N_("Stammtisch: back to the lobby"),
    N_("Language"),
    N_("Table"),
    N_("Connected"),
    N_("Connecting…"),
    N_("Skip to your decision"),
    N_("Rules"),
    N_("The connection was lost."),
    N_("Disconnected: reconnecting…"),
    N_("The server refused: {message}"),
    N_("Not connected; trying again…"),
    N_("The board could not be drawn: {message}"),
    N_("The game is over."),
    N_("This game was interrupted by an upgrade of the server."),
    N_("Its rules changed with the upgrade (rules version {old}, now {new}), so it cannot go on exactly as it "
       "was played. Its record keeps every move: a release with rules version {old} replays it."),
    N_("Your decision"),
    N_("Seat {number}"),
    N_("Waiting"),
    N_("Waiting for {names}."),
    N_("Your decision is sent"),
    N_("Sent (sealed):"),
    N_("You have decided; the others see only that, not what."),
    N_("has decided"),
    N_("Nobody is to act."),
    N_("You are watching."),
    N_("Undo my last move"),
    N_("Choose"),
    N_("Confirm"),
    N_("Final scores"),
    N_("Player"),
    N_("Points"),
    N_("winner"),
    N_("Players"),
    N_("bot"),
    N_("invited"),
    N_("free seat"),
    N_("online"),
    N_("disconnected"),
    N_("you"),
    N_("to act"),
    N_("Download the game record"),
    N_("Event log"),
    N_("It is your turn."),
    N_("invited, not yet joined"),
    N_("bot: {name}"),
    N_("Invite a friend"),
    N_("Bot kind"),
    N_("Add a bot"),
    N_("Take this seat"),
    N_("Invite link"),
    N_("New invite link"),
    N_("Waiting for players"),
    N_("{game}, players: {players}. The host starts the game once every seat is taken."),
    N_("Your name"),
    N_("You are invited to seat {number}."),
    N_("Join the table"),
    N_("Start the game"),
    N_("Fill every seat first."),
    N_("Link to this table (to watch or take a free seat)"),
    N_("The game has not started yet."),
    N_("heuristic bot"),
    N_("random bot"),
    N_("Player {number}"),
    N_("Bot {number} (heuristic)"),
    N_("Bot {number} (random)"),
    N_("Bot {number} (easy)"),
    N_("Bot {number} (normal)"),
    N_("Bot {number} (hard)"),
    N_("Not joined yet: {seats}. Start anyway? The game waits at their turns until they join."),
    N_("Start anyway"),
    N_("Wait for them"),
    N_("easy bot"),
    N_("normal bot"),
    N_("hard bot"),
    N_("What would the hard bot do?"),
    N_("The hard bot is thinking…"),
    N_("The hard bot would choose:"),
    N_("Why:"),
    N_("{action}: value {value} of 100 over {visits} simulated games"),
    N_("Copied"),
    N_("Copy: {what}"),
    N_("Copy"),
    N_("Please enter your name first."),
    N_("My games"),
    N_("Rematch"),
    N_("The same seats, options and pace; the other players are asked to join."),
    N_("A rematch with the same seats, options and pace is ready."),
    N_("Join the rematch"),
    N_("Go to the rematch"),
    N_("Watch the rematch"),
)

# lobby.js: the lobby.
LOBBY = (
    N_("What the table options do"),
    N_("Pace"),
    N_("Time"),
    N_("No time limit"),
    N_("Real time: a clock per player"),
    N_("Turn-based: {time}"),
    N_("1 hour per move"),
    N_("12 hours per move"),
    N_("24 hours per move"),
    N_("3 days per move"),
    N_("Minutes per player"),
    N_("Seconds added per move"),
    N_("Stand-in for an absent player"),
    N_("When a player's time runs out or they leave, a bot plays their seat until they come back."),
    N_("Lobby"),
    # TRANSLATORS: {games} lists the titles of the games as alternatives ("A or B"), in the page's language.
    N_("Play {games} with friends and bots. Every rule is enforced, every secret kept."),
    N_("New table"),
    N_("Game"),
    N_("players: {min}–{max}"),
    N_("Leave open (anyone may join)"),
    N_("The other seats"),
    N_("You take seat 1."),
    N_("Create the table"),
    N_("waiting for players"),
    N_("running"),
    N_("finished"),
    N_("interrupted by an upgrade"),
    N_("Your games"),
    N_("{game}, players: {players}"),
    N_("seat {number}"),
    N_("you host it"),
    N_("No games yet."),
    N_("Open tables"),
    N_("free seats: {count}"),
    N_("No open tables right now."),
    N_("All my games, those waiting for me first"),
    # issue 25: the first-visit lobby (a card per game, the bot levels)
    N_("Complexity: {value} of 5"),
    N_("Rules of {game}"),
    N_("Bots, weakest first"),
    # TRANSLATORS: the group of a seat's choices that are not bots (invite a friend, leave the seat open).
    N_("People"),
    N_("Plays any legal move at random: to try out the rules."),
    N_("Looks a little ahead and often errs: for a first game."),
    N_("Plays by rules of thumb at once: a fair opponent."),
    N_("Tries its best moves in simulated games: stronger than the heuristic bot."),
    N_("As the normal bot, with twice the time to think: the strongest."),
)

# mygames.js: My games, the tables of the browser's personal key.
MY_GAMES = (
    N_("Your tables, those waiting for you first"),
    N_("Loading…"),
    # TRANSLATORS: {names} lists the other players at a table.
    N_("with {names}"),
    N_("A rematch waits for you to join."),
    N_("Time left: {time}"),
    N_("Your personal key"),
    N_("This browser recognises you by a personal key, without a password. To see and play your games on "
       "another device, copy the key there. Keep it secret: whoever has it can play your seats."),
    N_("Show my key"),
    N_("Your key"),
    N_("A key from another device"),
    N_("Use this key"),
    # issue 25: where each game stands, its result, its rematch, the seats that wait
    # TRANSLATORS: {time} is how long ago, as the browser says it in the page's language ("5 minutes ago").
    N_("Last move {time}"),
    # TRANSLATORS: {time} is how long ago the table was created ("5 minutes ago"); nobody has moved yet.
    N_("Created {time}"),
    N_("You won with a score of {points}."),
    # TRANSLATORS: {names} lists the winners of a finished game.
    N_("{names} won; your score: {points}."),
    # TRANSLATORS: {scores} lists every player with their points, best first ("Anna 61, Ben 48").
    N_("Final scores: {scores}"),
    N_("The game this is a rematch of"),
    N_("Its rematch"),
    N_("Invite link for seat {number}"),
    N_("New invite link for seat {number}"),
    N_("Seat {number} waits for its invited player."),
)

# tablelog.js: the event log's filters and the result panels' frame (their contents: the games' browser.py).
TABLE_LOG = (
    N_("All"),
    N_("My moves"),
    N_("This round"),
    N_("Show in the log"),
    N_("No entries yet."),
    N_("Show results"),
    N_("Close"),
)

# replay.js: the replay of a game (issue 14), a seat's own (issue 25); app.js names rounds of games without
# names of their own.  The jumps to scorings are named by the games (GameSpec.scoring), in the server's answer.
REPLAY = (
    N_("Replay the game"),
    N_("Loading the replay…"),
    N_("Replay"),
    N_("Move {move} of {last}"),
    N_("the game goes on"),
    N_("Back to the live game"),
    N_("Close the replay"),
    N_("First move"),
    N_("Previous move"),
    N_("Next move"),
    N_("Latest move"),
    N_("Move"),
    N_("Jump to"),
    N_("What happened at this move"),
    N_("Keys: ← and → step through the moves, Home and End go to the first and the latest."),
    N_("Link to this move"),
    N_("Round {number}"),
    N_("as your seat saw it"),
    N_("My previous move"),
    N_("My next move"),
    # TRANSLATORS: {previous} and {next} are the names of two buttons, e.g. "Previous election" and "Next election"
    N_("Page Up and Page Down: {previous} and {next}."),
    N_("Shift+← and Shift+→: your previous and next move."),
)

# zoom.js: zoom for the board (issue 14).
ZOOM = (
    N_("Zoom the board"),
    N_("Zoom out"),
    N_("Zoom in"),
    N_("Reset zoom"),
)


def all_texts() -> list[str]:
    """The texts of every section and of every game's browser module, each once, in the order they are listed."""
    texts: dict[str, None] = {}
    for name, value in globals().items():
        if name.isupper() and isinstance(value, tuple):
            texts.update(dict.fromkeys(v for v in value if isinstance(v, str)))
    for spec in games().values():
        texts.update(dict.fromkeys(spec.browser_strings()))
    return list(texts)

# guide.js and lobby.js: Learn to play, the guided first game (docs/web.md, "Learn to play").
GUIDE = (
    N_("Learn to play"),
    N_("Learn to play {game}"),
    N_("A guided first game against bots, from a fixed deal: every phase is explained the first time it comes "
       "up, and you make every decision yourself."),
    N_("Step {number}"),
    N_("Why:"),
    N_("Look at:"),
    N_("Nothing new here: play on. The guide speaks up when something new comes."),
    N_("Show: {piece}"),
)
