// People of the Night Ferry (INCLUDEd by night_ferry.ink).

=== deckhand_talk ===
"Evening," says the deckhand.
{ coins > 4:
    * [Tip him]
        ~ coins = coins - 1
        ~ raise_trust(trust, 2)
        He grins and hands you a letter to deliver.
        ~ Items += letter
        ->->
    * [Ask about the weather]
        "Fog," he says. <>
        { Weather ? fog: "Thick as soup." }
        ->->
- else:
    He ignores you.
    ->->
}
- ->->

=== captain_thread ===
{ not met_captain:
    * [Greet the captain]
        ~ met_captain = true
        "Welcome aboard," she says.
        ~ raise_trust(trust, 1)
        -> saloon.top
}
-> DONE

=== keeper_talk ===
{ trust <= 0:
    "Go away."
    ->->
}
    * [Tell him about the ferry]
        ~ raise_trust(trust, 2)
    * [Say nothing]
- "Hm."
->->
