// The package benchmark's timing run: how long from importing spot-sim/fixture to the first test body.
import { defineConfig } from '@playwright/test';

export default defineConfig({ testDir: '.', testMatch: 'first.spec.ts', workers: 1, reporter: 'line' });
