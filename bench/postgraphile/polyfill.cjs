// PostGraphile 5 calls Promise.withResolvers (Node 22+); this machine runs Node 20.
// Loaded with `node --require ./polyfill.cjs` before anything else.
if (typeof Promise.withResolvers !== "function") {
  Promise.withResolvers = function withResolvers() {
    let resolve;
    let reject;
    const promise = new this((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}
