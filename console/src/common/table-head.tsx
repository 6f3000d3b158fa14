/** The header row of a data table: one column header per name. */
export function TableHead(props: { columns: readonly string[] }) {
  return (
    <thead>
      <tr>
        {props.columns.map((c) => (
          <th scope="col" key={c}>
            {c}
          </th>
        ))}
      </tr>
    </thead>
  );
}
