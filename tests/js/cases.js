// @ts-check
// The reference cases of the Python engine (engine-cases.json, written by `python -m
// tests.js.cases` and kept in step with carroca.rules by tests/js/test_cases.py).
import { readFileSync } from "node:fs";

/**
 * @typedef {{index: number, team: number, points: number, reason: string}} ScoreEvent
 * @typedef {{kind: string, seat: number | null, winner: number | null, detail: string}} HandEnd
 * @typedef {{legal: string[][], end: HandEnd, score: number[], events: ScoreEvent[],
 *   left: string[][]}} ExpectedHand
 * @typedef {{winner: number, score: number[], reason: string, pneu: boolean}} Result
 * @typedef {{record: any, expected: {hands: ExpectedHand[], result: Result}, shuffled: boolean}}
 *   MatchCase (shuffled: every hand dealt by the record's verifiable shuffle)
 * @typedef {{serverSeed: string, clientSeed: string, dealIndex: number, commitment: string,
 *   deal: string[]}} ShuffleCase
 */

/** @type {{matches: MatchCase[], shuffles: ShuffleCase[]}} */
export const CASES = JSON.parse(
  readFileSync(new URL("./engine-cases.json", import.meta.url), "utf-8"),
);
