import { badInputShard } from './support/bad-input.ts';

// Property-based bad input on every write route (test/support/bad-input.ts): shard 1 of 2.
badInputShard(0, 2);
