// every ink construct the importer translates, with its line numbers in the test
VAR trust = 0
VAR has_key = false
VAR mood = "calm"
VAR next_room = -> cellar
CONST LIMIT = 2
LIST colours = red, green
INCLUDE other.ink
-> harbor

=== harbor ===
The harbor at dusk.
* [Talk to the keeper] -> keeper
* {has_key} {trust >= LIMIT} [Open the gate] -> gate
+ {mood == "angry"} [Shout]
  ~ trust = trust - 1
  -> harbor
* (ask) [Ask about the boat]
  ~ trust++
  * * [Politely] -> keeper.talk
  * * [Rudely]
    ~ mood = "angry"
  - - -> harbor
* [Wait]
- (dusk) Night falls.
{trust > 1: -> gate | -> keeper}
* [Never shown A] -> gate
* [Never shown B] -> keeper
* -> END

=== keeper ===
-> talk
= talk
"Hello." {~-> harbor|-> gate}
{ keeper > 1:
  -> gate
- else:
  ~ has_key = true
}
{ mood:
- "calm": -> harbor
- else: -> storm ->
}
-> next_room
= farewell
<- chat
-> DONE

=== chat ===
* {RANDOM(1, 6) > 3} [Chat] -> harbor
* {harbor.dusk} [Remember the dusk] -> gate
-> DONE

=== storm ===
Thunder.
->->

=== gate ===
The gate opens.
-> END

=== cellar ===
A cellar.
* [Look]
