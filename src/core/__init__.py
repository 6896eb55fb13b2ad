"""The hexagon: pure logic and contracts. No I/O, no framework, no clock, no randomness."""
