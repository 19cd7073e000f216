// The peer: PostGraphile 5 over the benchmark's PostgreSQL database (the same tables our
// server reads), with the computed columns of functions.sql. The database URL and port
// come from the command line (`-c URL -p PORT`); bench/peer.py starts it.
import { PostGraphileAmberPreset } from "postgraphile/presets/amber";

/** @type {GraphileConfig.Preset} */
const preset = {
  extends: [PostGraphileAmberPreset],
  // The taxonomy's table is named `node`, which would clash with the Relay `Node`
  // interface; the workloads refetch nothing by global ID, so that interface goes.
  disablePlugins: ["NodePlugin"],
  grafserv: {
    graphqlPath: "/graphql",
    graphiql: false,
    watch: false,
  },
  grafast: {
    explain: false,
  },
};

export default preset;
