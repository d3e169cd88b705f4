// The AppApi and the latest pose frame, shared with every panel.
import { createContext, useContext } from 'react';
import type { AppApi } from '../../contract/api';

export const ApiContext = createContext<AppApi | null>(null);

export function useApi(): AppApi {
  const api = useContext(ApiContext);
  if (!api) throw new Error('useApi outside <ApiContext.Provider>');
  return api;
}
