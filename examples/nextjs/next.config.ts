import type { NextConfig } from 'next';

const config: NextConfig = {
  // The kit ships ESM with its own types; nothing to transpile.
  reactStrictMode: true,
};

export default config;
