// What esbuild gives the sources beside TypeScript: style sheets bundled into main-*.css.
declare module "*.css";
