// Imported before spot-sim/fixture (imports run in order): the moment the fixture starts loading.
export const importStarted = performance.now();
