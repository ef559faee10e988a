// Empty on purpose. Without a file of its own, Turbopack (its root is the repository, for node_modules) compiles
// the repository's instrumentation.ts into this app, which would start Agora's database and checks inside the floor.
export function register() {}
