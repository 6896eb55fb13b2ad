"""The course-like material of the v1 eval, as data: lecture scripts (one cue per sentence),
a Markdown note, a plain-text glossary and a PDF handout. ``build.py`` writes them to files."""

LECTURES = {
    "compilers/lecture-01-lexing.vtt": [
        "Welcome back. Today we start the front end of our compiler with lexical analysis.",
        "The lexer, sometimes called the scanner, reads the raw characters of the source file.",
        "It groups those characters into tokens, such as identifiers, numbers, operators and keywords.",
        "A token has a kind, the exact text it was made from, which we call the lexeme, and a position.",
        "We keep the line and column of every token so that error messages can point at the right place.",
        "Whitespace and comments are usually thrown away by the lexer and never reach the parser.",
        "Let me show you how we describe tokens. Each kind of token is described by a regular expression.",
        "For example, an identifier is a letter or underscore followed by any number of letters, digits or underscores.",
        "Regular expressions can be turned into a finite automaton, and that automaton is what actually runs.",
        "Tools like lex and flex do this conversion for you, but in this course we write the scanner by hand.",
        "A hand-written scanner is just a loop with a big switch on the current character.",
        "Now here is a subtle point. What happens when two rules could match at the same position?",
        "We use the maximal munch rule: the lexer always takes the longest possible match.",
        "So the input greater-equal is one token, not a greater-than followed by an equals sign.",
        "If two rules match the same longest text, the rule listed first wins, which is why keywords come before identifiers.",
        "That is how the word while becomes a keyword token and not an identifier token.",
        "Next, lookahead. Sometimes the scanner must peek at the next character before deciding.",
        "To tell a slash from the start of a comment, we peek one character ahead without consuming it.",
        "Most languages need only one character of lookahead in the lexer.",
        "String literals need care: we must handle escape sequences like backslash n and backslash quote.",
        "An unterminated string literal is a lexical error, and we report the line where the string started.",
        "When the lexer finds a character it does not recognize, it should not crash.",
        "A good lexer records an error token and keeps scanning, so the user sees every error at once.",
        "Performance matters too. The lexer touches every character, so it is often the hottest loop of a compiler.",
        "Keyword lookup is typically done with a perfect hash or a small trie rather than a chain of string comparisons.",
        "Next week we feed these tokens into a recursive descent parser.",
    ],
    "runtime/lecture-04-garbage-collection.vtt": [
        "In this lecture we look at how a language runtime frees memory automatically: garbage collection.",
        "An object is garbage when no chain of references from the roots can reach it.",
        "The roots are the places the program can read directly: global variables, the stack and the registers.",
        "The simplest tracing collector is mark and sweep.",
        "In the mark phase we start from the roots and set a mark bit on every object we can reach.",
        "In the sweep phase we walk the whole heap and free every object whose mark bit is not set.",
        "The weakness of mark and sweep is fragmentation: free memory ends up in many small holes.",
        "A copying collector avoids fragmentation by copying live objects into a fresh region of memory.",
        "Cheney's algorithm does the copying breadth first, using the new region itself as the queue.",
        "Copying costs time proportional to the live objects only, not to the size of the heap.",
        "The price is that half of the memory is reserved as the empty to-space.",
        "Reference counting is the other big family. Every object counts how many references point to it.",
        "When the count drops to zero the object is freed immediately, which gives very predictable pauses.",
        "But reference counting cannot reclaim cycles, for example two objects that point at each other.",
        "That is why CPython adds a separate cycle detector on top of its reference counts.",
        "Now the most important observation in this field: the generational hypothesis.",
        "Most objects die young. A typical program allocates many short-lived temporaries.",
        "So a generational collector splits the heap into a young generation and an old generation.",
        "Young collections are frequent and cheap because most young objects are already dead.",
        "Objects that survive a few young collections are promoted to the old generation.",
        "There is one catch: old objects can point to young ones.",
        "The runtime tracks those pointers with a write barrier and a remembered set, so a young collection need not scan the whole old generation.",
        "Finally, pause times. A stop the world collector halts the program while it runs.",
        "Concurrent and incremental collectors do their work in small steps alongside the program to keep pauses short.",
        "Tri-color marking, with white, grey and black objects, is the standard way to reason about concurrent marking.",
    ],
}

SRT_LECTURES = {
    "distributed/lecture-07-consistent-hashing.srt": [
        "Today's topic is how to spread keys over a changing set of cache servers.",
        "The naive approach is to take the hash of the key modulo the number of servers.",
        "The problem shows up when a server is added or removed.",
        "With modulo hashing, changing the number of servers remaps almost every key, and the cache is suddenly cold.",
        "Consistent hashing fixes this by placing both servers and keys on a ring of hash values.",
        "A key belongs to the first server found walking clockwise around the ring from the key's position.",
        "When a server joins, it only takes over the keys between itself and its predecessor on the ring.",
        "On average only one over n of the keys move when the cluster has n servers.",
        "With only a few servers, the ring positions can be very uneven, so some servers get far more keys.",
        "The fix is virtual nodes: each physical server is placed on the ring many times, say one hundred times.",
        "Virtual nodes also let a bigger machine take a larger share by giving it more points on the ring.",
        "Amazon's Dynamo paper popularized this design for its key value store.",
        "An alternative with no ring at all is rendezvous hashing, also called highest random weight hashing.",
        "In rendezvous hashing every server scores the key, and the key goes to the server with the highest score.",
        "Jump consistent hash from Google needs no memory for a ring, but it only supports numbered buckets.",
        "To survive failures, each key is usually also stored on the next few servers on the ring, its replicas.",
    ],
}

NOTES = {
    "notes/algorithms-big-o.md": """---
tags: [algorithms, complexity]
---
# Big-O notation

Big-O describes how the running time or memory of an algorithm grows as the input size grows.
It gives an upper bound and ignores constant factors and lower-order terms.

## Common classes

Constant time, O(1), does not depend on the input size: reading an array element by index.
Logarithmic time, O(log n), halves the problem at every step, like binary search on a sorted array.
Linear time, O(n), touches every element once. Sorting by comparison needs O(n log n) in the worst case.
Quadratic time, O(n^2), typically comes from two nested loops over the input.

## Amortized analysis

Amortized cost averages the cost of an operation over a worst-case sequence of operations.
Appending to a dynamic array is O(1) amortized: the occasional resize copies every element,
but doubling the capacity makes those copies rare enough that the average stays constant.

## Hash tables

A hash table gives O(1) expected time for insert and lookup.
Collisions are resolved by chaining, where each bucket holds a list, or by open addressing,
where a colliding key probes other slots. When the load factor grows too high the table is resized.
""",
}

TEXTS = {
    "notes/glossary.txt": """Closure: a function bundled with the variables of the scope it was defined in, so it can use them after that scope has returned.

Tail call: a call that is the last action of a function; a compiler can reuse the caller's stack frame for it, so deep recursion does not overflow the stack.

Memoization: caching the result of a pure function for each argument so repeated calls are answered from the cache.

Idempotent: an operation that has the same effect whether it is applied once or many times, such as setting a value or a PUT request.
""",
}

PDF_PAGES = {
    "handouts/tcp-congestion-control.pdf": [
        ("TCP congestion control handout. Page one: slow start. A new connection starts with a small "
         "congestion window and doubles it every round trip time, so the sending rate grows "
         "exponentially until it reaches the slow start threshold."),
        ("Page two: congestion avoidance and loss. After the threshold the window grows by one segment "
         "per round trip, which is additive increase. On packet loss the window is cut in half, "
         "which is multiplicative decrease. Three duplicate acknowledgements trigger fast retransmit."),
    ],
}

# Questions over the course material: (question, file, phrase the answer is in, answerable).
# The gold anchor is the moment / page / heading holding the phrase; unanswerable questions
# name no gold. Some are off-topic, some are on-topic but not covered by the material.
QUESTIONS = [
    ("What is the maximal munch rule in a lexer?", "compilers/lecture-01-lexing.vtt", "maximal munch rule", True),
    ("Why do keywords have to be listed before identifiers in the lexer rules?", "compilers/lecture-01-lexing.vtt", "rule listed first wins", True),
    ("What is a lexeme?", "compilers/lecture-01-lexing.vtt", "which we call the lexeme", True),
    ("How does the scanner tell a slash apart from the start of a comment?", "compilers/lecture-01-lexing.vtt", "peek one character ahead", True),
    ("What should the lexer do with an unterminated string literal?", "compilers/lecture-01-lexing.vtt", "unterminated string literal", True),
    ("How are keywords looked up quickly in a scanner?", "compilers/lecture-01-lexing.vtt", "perfect hash", True),
    ("Which tools generate a scanner from regular expressions?", "compilers/lecture-01-lexing.vtt", "lex and flex", True),
    ("What happens in the sweep phase of mark and sweep?", "runtime/lecture-04-garbage-collection.vtt", "In the sweep phase", True),
    ("What are the roots of garbage collection?", "runtime/lecture-04-garbage-collection.vtt", "The roots are the places", True),
    ("Why can't reference counting free cycles?", "runtime/lecture-04-garbage-collection.vtt", "cannot reclaim cycles", True),
    ("What does Cheney's algorithm do?", "runtime/lecture-04-garbage-collection.vtt", "Cheney's algorithm", True),
    ("What is the generational hypothesis?", "runtime/lecture-04-garbage-collection.vtt", "Most objects die young", True),
    ("Why does a generational collector need a write barrier?", "runtime/lecture-04-garbage-collection.vtt", "write barrier", True),
    ("What is the downside of a copying collector?", "runtime/lecture-04-garbage-collection.vtt", "half of the memory", True),
    ("How do concurrent collectors keep pauses short?", "runtime/lecture-04-garbage-collection.vtt", "small steps alongside", True),
    ("What goes wrong with hash modulo the number of servers when a server is added?", "distributed/lecture-07-consistent-hashing.srt", "remaps almost every key", True),
    ("Which keys move when a new server joins a consistent hashing ring?", "distributed/lecture-07-consistent-hashing.srt", "only takes over the keys", True),
    ("What are virtual nodes for in consistent hashing?", "distributed/lecture-07-consistent-hashing.srt", "The fix is virtual nodes", True),
    ("How does rendezvous hashing assign a key to a server?", "distributed/lecture-07-consistent-hashing.srt", "every server scores the key", True),
    ("What is the limitation of jump consistent hash?", "distributed/lecture-07-consistent-hashing.srt", "only supports numbered buckets", True),
    ("Why is appending to a dynamic array O(1) amortized?", "notes/algorithms-big-o.md", "Appending to a dynamic array", True),
    ("How do hash tables resolve collisions?", "notes/algorithms-big-o.md", "Collisions are resolved", True),
    ("What does binary search cost?", "notes/algorithms-big-o.md", "binary search", True),
    ("What is a closure?", "notes/glossary.txt", "Closure:", True),
    ("What does idempotent mean?", "notes/glossary.txt", "Idempotent:", True),
    ("What happens to the TCP congestion window on packet loss?", "handouts/tcp-congestion-control.pdf", "cut in half", True),
    ("How fast does the congestion window grow during slow start?", "handouts/tcp-congestion-control.pdf", "doubles it every round trip", True),
    ("What triggers fast retransmit?", "handouts/tcp-congestion-control.pdf", "Three duplicate acknowledgements", True),
    # not answered by the material
    ("What is the capital of Australia?", None, None, False),
    ("How do I bake sourdough bread?", None, None, False),
    ("Who won the 2018 football world cup?", None, None, False),
    ("How does a B-tree split a full node?", None, None, False),
    ("What is the difference between TCP and UDP?", None, None, False),
    ("How does LR parsing build its parse table?", None, None, False),
    ("What is the time complexity of Dijkstra's algorithm with a binary heap?", None, None, False),
    ("How does the Raft consensus algorithm elect a leader?", None, None, False),
    ("Which garbage collector does the Go runtime use?", None, None, False),
    ("How many virtual nodes does Cassandra use by default?", None, None, False),
]
