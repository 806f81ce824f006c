"""Example 2: time travel: go back three steps, change the state, fork, compare the branches.

What it shows: a thread's history is a tree you can walk back in. We plan a trip step by
step, go back to the checkpoint three steps before the end, give it a bigger budget with
`update_state` (a fork: a new branch beside the old one, which is kept), run the rest of
the graph on the new branch, and compare the two ends with `foldgraph.history.diff`.
Then the same comparison from the command line, and where to click in the viewer.

Run it:
    python examples/02_time_travel.py [DB]        # DB defaults to trips.sqlite
It prints the commands that show the same thing outside Python:
    foldgraph diff trips.sqlite trip-1 <original end> <forked end>
    foldgraph ui trips.sqlite --graph examples/02_time_travel.py:graph
(in the viewer: open thread trip-1, the fork is a branch of its history tree; click one
end, then alt-click the other to diff them.)
"""

from __future__ import annotations

import operator
import sys
from typing import Annotated

from typing_extensions import TypedDict

from foldgraph.checkpoint.sqlite import SqliteSaver
from foldgraph.graph import END, START, StateGraph
from foldgraph.history import diff


class Trip(TypedDict):
    city: str
    budget: int
    flight: str
    hotel: str
    dinner: str
    spent: Annotated[int, operator.add]  # each booking adds its price
    itinerary: str


FLIGHTS = [(250, "economy"), (900, "business")]
HOTELS = [(150, "hostel"), (600, "boutique hotel")]
DINNERS = [(30, "street food"), (120, "tasting menu")]


def best(options: list[tuple[int, str]], money: int) -> tuple[int, str]:
    """The dearest option the money covers (the cheapest if none is)."""
    affordable = [o for o in options if o[0] <= money]
    return max(affordable) if affordable else min(options)


def book_flight(trip: Trip) -> dict:
    price, name = best(FLIGHTS, trip["budget"] // 2)
    return {"flight": name, "spent": price}


def book_hotel(trip: Trip) -> dict:
    price, name = best(HOTELS, trip["budget"] - trip["spent"])
    return {"hotel": name, "spent": price}


def book_dinner(trip: Trip) -> dict:
    price, name = best(DINNERS, trip["budget"] - trip["spent"])
    return {"dinner": name, "spent": price}


def write_itinerary(trip: Trip) -> dict:
    return {
        "itinerary": f"{trip['city']}: {trip['flight']} flight, {trip['hotel']}, "
        f"{trip['dinner']}; {trip['spent']} spent of {trip['budget']}"
    }


def build(checkpointer=None):
    builder = StateGraph(Trip)
    builder.add_node("book_flight", book_flight)
    builder.add_node("book_hotel", book_hotel)
    builder.add_node("book_dinner", book_dinner)
    builder.add_node("write_itinerary", write_itinerary)
    builder.add_edge(START, "book_flight")
    builder.add_edge("book_flight", "book_hotel")
    builder.add_edge("book_hotel", "book_dinner")
    builder.add_edge("book_dinner", "write_itinerary")
    builder.add_edge("write_itinerary", END)
    return builder.compile(checkpointer=checkpointer)


graph = build()  # for `foldgraph ui/fork/replay --graph examples/02_time_travel.py:graph`


def main(path: str) -> None:
    with SqliteSaver.from_conn_string(path) as saver:
        app = build(saver)
        thread = f"trip-{len(saver.list_threads()) + 1}"
        config = {"configurable": {"thread_id": thread}}

        print(f"1. Plan a trip on thread {thread!r}:")
        first = app.invoke({"city": "Lisbon", "budget": 800}, config)
        print(f"   {first['itinerary']}")

        history = list(app.get_state_history(config))  # newest first
        back = history[3]
        print(f"2. Three steps back: step {back.metadata['step']}, next={back.next}")
        print(f"   booked so far: flight={back.values['flight']!r}, spent={back.values['spent']}")

        print("3. Fork there with a bigger budget, and run the rest on the new branch:")
        fork = app.update_state(back.config, {"budget": 1600})
        second = app.invoke(None, fork)
        print(f"   {second['itinerary']}")

        print("4. Compare the two ends with diff():")
        ends = list(app.get_state_history(config))
        original_end, forked_end = history[0], ends[0]
        change = diff(original_end, forked_end)
        for key, (old, new) in sorted(change.changed.items()):
            print(f"   {key}: {old!r} -> {new!r}")
        print(f"5. Both branches are kept: {len(ends)} checkpoints, the original end unchanged:")
        print(f"   {app.get_state(original_end.config).values['itinerary']}")

        a = original_end.config["configurable"]["checkpoint_id"]
        b = forked_end.config["configurable"]["checkpoint_id"]
        print("The same from the command line, and in the viewer:")
        print(f"   foldgraph diff {path} {thread} {a} {b}")
        print(f"   foldgraph ui {path} --graph examples/02_time_travel.py:graph")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "trips.sqlite")
