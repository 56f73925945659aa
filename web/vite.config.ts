import { defineConfig } from "vite";
import preact from "@preact/preset-vite";

// The build goes into the Python package, so `pip install` + `meloch serve` needs no Node.
export default defineConfig({
  plugins: [preact()],
  build: { outDir: "../meloch/server/static", emptyOutDir: true },
});
