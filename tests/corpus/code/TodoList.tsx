import React, { useState } from "react";

export interface Todo {
  id: number;
  title: string;
  done: boolean;
}

type Props = {
  initial?: Todo[];
  onChange?: (todos: Todo[]) => void;
};

/** One row of the list. */
function TodoItem({ todo, onToggle }: { todo: Todo; onToggle: (id: number) => void }) {
  return (
    <li className={todo.done ? "done" : ""}>
      <input type="checkbox" checked={todo.done} onChange={() => onToggle(todo.id)} />
      {todo.title}
    </li>
  );
}

export const TodoList = ({ initial = [], onChange }: Props) => {
  const [todos, setTodos] = useState<Todo[]>(initial);
  const [draft, setDraft] = useState("");

  const toggle = (id: number) => {
    const next = todos.map((t) => (t.id === id ? { ...t, done: !t.done } : t));
    setTodos(next);
    onChange?.(next);
  };

  const add = () => {
    if (!draft.trim()) return;
    const next = [...todos, { id: Date.now(), title: draft.trim(), done: false }];
    setTodos(next);
    setDraft("");
    onChange?.(next);
  };

  return (
    <div>
      <ul>
        {todos.map((t) => (
          <TodoItem key={t.id} todo={t} onToggle={toggle} />
        ))}
      </ul>
      <input value={draft} onChange={(e) => setDraft(e.target.value)} />
      <button onClick={add}>Add</button>
    </div>
  );
};

export default TodoList;
