import { createContext, useContext } from "react";

// The CSP nonce of this request (server only; the browser hides nonce values after load).
const NonceContext = createContext("");
export const NonceProvider = NonceContext.Provider;
export const useNonce = () => useContext(NonceContext);
