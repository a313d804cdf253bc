// Search (stub until filled in).
export function SearchPage() {
  return <h1>Search</h1>;
}
