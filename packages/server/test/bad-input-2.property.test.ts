import { badInputShard } from './support/bad-input.ts';

// Property-based bad input on every write route (test/support/bad-input.ts): shard 2 of 2.
badInputShard(1, 2);
