/**
 * A group select's options: each group by its name and its id, said as "group 10" so a name with a
 * number of its own ("Kraków support #1") is not read as the id. `none` is the first option's words
 * ("No group"), or null for a select where a group must be chosen (its placeholder is the caller's).
 */
export function GroupOptions({ groups, none = "No group" }: { groups: readonly { id: number; name: string }[]; none?: string | null }) {
  return (
    <>
      {none ? <option value="">{none}</option> : null}
      {groups.map((group) => (
        <option key={group.id} value={group.id}>
          {group.name} (group {group.id})
        </option>
      ))}
    </>
  );
}
