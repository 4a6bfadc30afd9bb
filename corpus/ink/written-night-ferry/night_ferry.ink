// The Night Ferry: written for storygraph's corpus (not a published story).
// Exercises: INCLUDE, CONST, LIST, VAR divert targets, functions with ref
// parameters, knot parameters, ~ temp, tunnels (plain and conditional),
// ->-> early returns inside conditions, threads with -> DONE, divert-target
// parameters -> f(-> knot), "- else:" after choices inside {cond: ...},
// glue <> after }, one knot nothing diverts to (harbour_master_office).
INCLUDE night_ferry_people.ink

CONST FARE = 3
CONST MAX_TRUST = 5
LIST Items = lantern, (ticket), rope, letter
LIST Weather = calm, (fog), storm
VAR coins = 5
VAR trust = 0
VAR next_stop = -> quay
VAR met_captain = false

-> quay

=== function spend(ref purse, amount)
    { purse < amount:
        ~ return false
    }
    ~ purse = purse - amount
    ~ return true

=== function raise_trust(ref t, by)
    ~ temp capped = t + by
    { capped > MAX_TRUST:
        ~ capped = MAX_TRUST
    }
    ~ t = capped

=== function describe_weather()
    { Weather:
    - calm: still water
    - fog: a wall of fog
    - storm: black waves
    }

=== quay ===
The quay smells of tar. Tonight there is {describe_weather()}.
{ Items ? ticket: You hold your ticket. }
    * [Buy a lantern]
        { spend(coins, 2):
            ~ Items += lantern
            The lantern is yours.
        - else:
            You cannot afford it.
        }
        -> quay
    * [Talk to the deckhand] -> deckhand_talk ->
        -> quay
    + [Board the ferry]
        { Items ? ticket:
            -> board(1)
        - else:
            -> ticket_booth
        }
    * { coins >= FARE } [Take a rowing boat instead]
        -> rowing(-> island_beach)

=== ticket_booth ===
"Ticket, please." The booth is shut.
    + [Pay the fare of {FARE}]
        { spend(coins, FARE):
            ~ Items += ticket
            -> quay
        }
        You turn out your pockets: nothing.
        -> stranded
    + [Go back] -> quay

=== board(deck) ===
~ temp crossing = deck * 2
You climb to deck {deck}. The crossing takes {crossing} hours.
{ Weather ? storm: -> storm_drill -> }
-> saloon

=== storm_drill ===
The crew drills for the storm.
{ Items ? rope:
    You already have a rope.
    ->->
}
    * [Take a rope]
        ~ Items += rope
    * [Refuse]
        ~ raise_trust(trust, -1)
- ->->

=== saloon ===
- (top)
The saloon is warm.
<- gossip(-> top)
<- captain_thread
    * [Read the notice board]
        A notice: the {next_stop == -> island_beach: beach|harbour} is closed.
        -> top
    * { met_captain } [Go up to the bridge]
        -> bridge
    + [Sleep until landfall]
        -> landfall(next_stop)

=== gossip(-> back) ===
    * [Listen to the passengers]
        {&They whisper about the captain.|They talk about the fog.|Nobody speaks.}
        -> back
    - -> DONE

=== landfall(-> where) ===
The engines slow.
-> where

=== bridge ===
{ trust >= 3:
    The captain lets you steer.
    ~ next_stop = -> island_beach
- else:
    The captain sends you back down.
}
-> saloon.top

=== rowing(-> destination) ===
~ temp strokes = 0
- (row)
~ strokes++
You row{ strokes > 1: again}<>
{ strokes < 3:
    <>, and the shore is still far.
    -> row
}
<>, and reach land.
-> destination

=== island_beach ===
You step onto the island beach.
{ Items ? letter:
    -> ending_letter
}
    * [Walk to the lighthouse] -> lighthouse
    * [Wait for the ferry] -> ending_wait

=== lighthouse ===
The keeper looks at you.
-> keeper_talk ->
{ trust >= MAX_TRUST: -> ending_keeper }
-> ending_wait

=== stranded ===
With no money and no ticket you sit on the quay until morning.
-> END

=== ending_letter ===
You deliver the letter. The end.
-> END

=== ending_keeper ===
The keeper hands you the key of the light. The end.
-> END

=== ending_wait ===
The ferry comes at dawn. The end.
-> END

=== harbour_master_office ===
Nothing diverts here: the harbour master's office is never visited.
-> END
