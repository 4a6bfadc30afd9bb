"""A verdict domain that lives outside ``src/`` (issue 29): a greenhouse's plants, judged
by how long each has gone without water.  It is installed in the test run through its
entry point alone (a ``dist-info`` folder the tests write) and ships its own card schema,
so the kit's plug-in boundary is tested as a third party would meet it."""
