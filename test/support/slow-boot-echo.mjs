// thread-echo.mjs, loading at a pace set by the thread's id: ids 3, 6, ... at once, 1, 4, ...
// after 200 ms and 2, 5, ... after 400 ms, so that a pool's threads become ready one by one.
import { threadId } from 'node:worker_threads';

await new Promise((resolve) => setTimeout(resolve, (threadId % 3) * 200));
export { default } from './thread-echo.mjs';
