// Entity page (stub until filled in).
export function EntityPage({ id }: { id?: string }) {
  return <h1>Entity {id}</h1>;
}
